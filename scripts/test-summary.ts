// Prints one plain closing line from Vitest's JSON report: "unit: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const [file, label = 'tests'] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/test-summary.ts <vitest-json-report> [label]');
const report = JSON.parse(readFileSync(file, 'utf8')) as {
  numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number;
};
console.log(`${label}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`);
