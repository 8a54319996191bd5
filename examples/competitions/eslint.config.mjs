import base from '../../eslint.config.mjs';

export default [
  ...base,
  {
    // The pack tests run python3 with an environment they build themselves from PATH.
    files: ['**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
];
