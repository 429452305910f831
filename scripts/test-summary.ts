// Closing lines of `npm test`: one per suite and a total, "N passed, N failed, N skipped",
// read from Vitest's and Playwright's JSON reports, then every failure by name with the first
// line of its message, so the last lines of a CI log say what broke. A missing report counts as
// a failure, and so does a test file that failed outside its tests (in a beforeAll, or on
// import): Vitest reports its tests as skipped, which would otherwise hide the file.
import { existsSync, readFileSync } from 'node:fs';

interface Counts { passed: number; failed: number; skipped: number; failures: string[] }

interface VitestReport {
  numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number;
  testResults: { name: string; status: string; message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

const firstLine = (text: string | undefined): string => (text ?? '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';
const relative = (file: string): string => file.replace(`${process.cwd()}/`, '');

function vitest(file: string): Counts {
  const r = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
  const counts: Counts = { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests, failures: [] };
  for (const result of r.testResults) {
    for (const test of result.assertionResults) {
      if (test.status === 'failed') counts.failures.push(`${relative(result.name)} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
    }
    const failedTests = result.assertionResults.some((test) => test.status === 'failed');
    if (result.status === 'failed' && !failedTests) {
      counts.failed += 1;
      counts.failures.push(`${relative(result.name)} (the file itself): ${firstLine(result.message) || 'no message; its tests after the last one run did not run (the worker may have exited: see the log above)'}`);
    }
  }
  return counts;
}

interface PlaywrightSuite { title: string; file?: string; suites?: PlaywrightSuite[]; specs?: { title: string; file: string; tests: { projectName: string; status: string; results: { error?: { message?: string } }[] }[] }[] }

function playwright(file: string): Counts {
  const r = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number }; suites?: PlaywrightSuite[]; errors?: { message?: string }[] };
  const counts: Counts = { passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, skipped: r.stats.skipped, failures: [] };
  const walk = (suite: PlaywrightSuite, titles: string[]): void => {
    const here = suite.file === suite.title ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const error = test.results.map((result) => result.error?.message).find(Boolean);
        counts.failures.push(`[${test.projectName}] ${spec.file} › ${[...here, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of r.suites ?? []) walk(suite, []);
  for (const error of r.errors ?? []) {
    counts.failed += 1;
    counts.failures.push(`(outside any test): ${firstLine(error.message)}`);
  }
  return counts;
}

const [unitFile, e2eFile] = process.argv.slice(2) as [string, string];
const suites: [string, string, (f: string) => Counts][] = [['unit', unitFile, vitest], ['e2e', e2eFile, playwright]];
const total = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];
for (const [label, file, read] of suites) {
  const counts = existsSync(file) ? read(file) : { passed: 0, failed: 1, skipped: 0, failures: [`${label}: no report (the suite did not run)`] };
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
  failures.push(...counts.failures.map((failure) => `${label}: ${failure}`));
}
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
