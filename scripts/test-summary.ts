// Closing lines of `npm test`: one per suite and a total, "N passed, N failed, N skipped",
// read from Vitest's and Playwright's JSON reports. A missing report counts as a failure.
import { existsSync, readFileSync } from 'node:fs';

interface Counts { passed: number; failed: number; skipped: number }

function vitest(file: string): Counts {
  const r = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
}

function playwright(file: string): Counts {
  const r = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  return { passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, skipped: r.stats.skipped };
}

const [unitFile, e2eFile] = process.argv.slice(2) as [string, string];
const suites: [string, string, (f: string) => Counts][] = [['unit', unitFile, vitest], ['e2e', e2eFile, playwright]];
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const [label, file, read] of suites) {
  const counts = existsSync(file) ? read(file) : { passed: 0, failed: 1, skipped: 0 };
  if (!existsSync(file)) console.log(`${label}: no report (the suite did not run)`);
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
