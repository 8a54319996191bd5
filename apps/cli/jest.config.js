/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'cli',
  rootDir: __dirname,
};
