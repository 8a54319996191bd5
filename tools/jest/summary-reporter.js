// Writes one JSON line of counts per Jest project when TEST_SUMMARY_DIR is set, so CI can print
// a single "N passed, N failed" line for the whole workspace.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.dir = process.env.TEST_SUMMARY_DIR;
    this.name = (globalConfig.rootDir || 'project').split('/').slice(-2).join('-');
  }

  onRunComplete(_contexts, results) {
    if (!this.dir) return;
    mkdirSync(this.dir, { recursive: true });
    const summary = {
      project: this.name,
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      suites: results.numTotalTestSuites,
    };
    writeFileSync(join(this.dir, `${this.name}.json`), JSON.stringify(summary) + '\n');
  }
}

module.exports = SummaryReporter;
