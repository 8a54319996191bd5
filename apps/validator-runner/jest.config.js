/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'validator-runner',
  rootDir: __dirname,
};
