#!/usr/bin/env node
// CI's counts for one step: reads the summaries tools/jest/summary-reporter.js wrote into DIR, prints
// "PASSED FAILED SKIPPED" (or "0 1 0" when no suite reported, so a step that never ran counts as a failure),
// and appends each failure to FAILURES_FILE under the step's name, for the closing lines of .ci/run.
//   node tools/jest/ci-counts.js DIR STEP FAILURES_FILE
const { appendFileSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const [dir, step, failuresFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let found = false;
for (const name of readdirSync(dir)) {
  const summary = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  passed += summary.passed;
  failed += summary.failed;
  skipped += summary.skipped ?? 0;
  found = true;
  for (const failure of summary.failures ?? []) {
    const message = failure.message.split('\n').map((line) => `      ${line}`).join('\n');
    appendFileSync(failuresFile, `  ${step}: ${failure.file} › ${failure.test}\n${message}\n`);
  }
}
console.log(found ? `${passed} ${failed} ${skipped}` : "0 1 0");
