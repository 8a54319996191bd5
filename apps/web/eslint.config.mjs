import base from '../../eslint.config.mjs';

// The base config types and checks `*.ts`; the components are `*.tsx`, held to the same rules.
const forTsx = base.filter((entry) => entry.files?.length === 1 && entry.files[0] === '**/*.ts').map((entry) => ({ ...entry, files: ['**/*.tsx'] }));

export default [
  ...base,
  { ignores: ['vite.config.mts'] },
  ...forTsx,
  // Copied to the page as it is, before any bundle: plain ES5 that every browser parses.
  { files: ['public/early.js'], rules: { 'no-var': 'off' } },
];
