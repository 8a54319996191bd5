import base, { repositoryImportPatterns } from '../../eslint.config.mjs';

export default [
  ...base,
  {
    // `src` is platform-neutral but for AES-GCM (tsconfig.lib.json carries Node types for that file
    // alone), and the wasm build of the Rust crate is a test oracle, never production code.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts', 'src/aes-gcm.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...repositoryImportPatterns,
            { group: ['node:*'], message: 'Only src/aes-gcm.ts may use a Node module.' },
            { group: ['@ideallabs/*'], message: 'The wasm tle crate is a test oracle: spec files only.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'Buffer', 'process', 'require', '__dirname'],
    },
  },
];
