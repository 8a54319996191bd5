/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'chain',
  rootDir: __dirname,
  setupFiles: ['<rootDir>/jest.setup.ts'],
};
