/**
 * Prints the plain closing line "tests: N passed, N failed[, N skipped]" summed over vitest JSON reports (one per
 * Node the suite ran on), plus one line per report so a reader sees which run counted what. A missing or unreadable
 * report counts as a failure: a run that crashed before writing it must not look green.
 */
import { readFileSync } from 'node:fs';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-results.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    console.log(`[test] ${file}: no readable report (${error.message})`);
    failed += 1;
    continue;
  }
  const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`[test] ${file} (passed/failed/skipped): ${report.numPassedTests}/${report.numFailedTests}/${s}`);
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.success === false && report.numFailedTests === 0 ? 1 : 0);
  skipped += s;
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
