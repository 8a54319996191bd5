import base from '../eslint.config.mjs';

export default [
  ...base,
  {
    // Operator tools (the local stack launcher, benchmarks) read the environment directly.
    files: ['**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
];
