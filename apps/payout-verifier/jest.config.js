/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'payout-verifier',
  rootDir: __dirname,
};
