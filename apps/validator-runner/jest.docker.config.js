// The docker sandbox against a real engine (test/*.docker-spec.ts): `nx run validator-runner:test-docker`,
// never part of `npm test`, which must not depend on Docker.
/** @type {import('jest').Config} */
module.exports = {
  ...require('./jest.config.js'),
  displayName: 'validator-runner (docker sandbox)',
  testMatch: ['<rootDir>/test/**/*.docker-spec.ts'],
};
