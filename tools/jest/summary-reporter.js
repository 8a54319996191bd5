// Writes one JSON line per Jest project when TEST_SUMMARY_DIR is set: the counts, so CI can print a
// single "N passed, N failed" line for the whole workspace, and each failure's file, test and first
// lines, so CI's closing lines name what failed (tools/jest/ci-counts.js reads them).
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { stripVTControlCharacters } = require('node:util');

const MESSAGE_LINES = 6;
const MESSAGE_CHARS = 600;

// The first lines of a failure message, without colours, short enough for a CI log's tail.
function firstLines(message) {
  const plain = stripVTControlCharacters(String(message || ''));
  const lines = plain.split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
  return lines.slice(0, MESSAGE_LINES).join('\n').slice(0, MESSAGE_CHARS);
}

class SummaryReporter {
  constructor(globalConfig) {
    this.dir = process.env.TEST_SUMMARY_DIR;
    this.name = (globalConfig.rootDir || 'project').split('/').slice(-2).join('-');
  }

  onRunComplete(_contexts, results) {
    if (!this.dir) return;
    mkdirSync(this.dir, { recursive: true });
    const failures = [];
    for (const suite of results.testResults) {
      const file = relative(process.cwd(), suite.testFilePath);
      if (suite.testExecError || (suite.failureMessage && suite.numFailingTests === 0)) {
        failures.push({ file, test: '(the suite did not run)', message: firstLines(suite.testExecError?.message ?? suite.failureMessage) });
      }
      for (const test of suite.testResults) {
        if (test.status === 'failed') failures.push({ file, test: test.fullName, message: firstLines(test.failureMessages.join('\n')) });
      }
    }
    const summary = {
      project: this.name,
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      suites: results.numTotalTestSuites,
      failures,
    };
    writeFileSync(join(this.dir, `${this.name}.json`), JSON.stringify(summary) + '\n');
  }
}

module.exports = SummaryReporter;
