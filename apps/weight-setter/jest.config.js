/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'weight-setter',
  rootDir: __dirname,
};
