// The suites on a Redis Cluster and a Postgres streaming replica the harness starts itself
// (`*.cluster-spec.ts` anywhere): `nx run tools:test-cluster`, never part of `npm test` (a second set of
// servers per suite, minutes each). DECISIONS §19.
// The target runs it with --forceExit: these suites kill and restart servers under clients that reconnect
// (ioredis cluster refreshes, pg pools), and one such loop left behind once kept Jest alive after every
// suite had passed until CI's own limit. The suites themselves still assert everything they check.
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'cluster',
  rootDir: path.join(__dirname, '..'),
  testMatch: ['<rootDir>/apps/**/*.cluster-spec.ts', '<rootDir>/libs/**/*.cluster-spec.ts', '<rootDir>/tools/**/*.cluster-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
