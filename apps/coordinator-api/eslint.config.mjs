import base from '../../eslint.config.mjs';

export default [
  ...base,
  {
    // A domain reaches another's tables only through what that domain's module exports (or its readers),
    // never by a deep import of its repository. Same-domain imports (`./x.repository`) are fine.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/*.repository', '../*/*.repository.ts'],
              message: "Import another domain's data access from its module file (or its readers), not from its repository.",
            },
          ],
        },
      ],
    },
  },
];
