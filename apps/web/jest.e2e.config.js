// The browser suite (`npx nx e2e web`): a demo-populated stack driven by Debian's chromium; not part of `npm test`.
/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'web-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
  testTimeout: 600000,
};
