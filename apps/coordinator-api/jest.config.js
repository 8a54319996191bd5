/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'coordinator-api',
  rootDir: __dirname,
};
