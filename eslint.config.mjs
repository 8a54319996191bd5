import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * A domain reaches another's tables only through what that domain's module exports (or its readers),
 * never by a deep import of its repository. Same-domain imports (`./x.repository`, and `../x.repository`
 * from a domain's subfolder such as `entities/`) are fine. A config that sets its own
 * `no-restricted-imports` for `src` spreads these patterns into it (a rule set later replaces this one).
 */
export const repositoryImportPatterns = [
  {
    group: ['../*/*.repository', '../*/*.repository.ts', '../../*/*.repository', '../../*/*.repository.ts'],
    message: "Import another domain's data access from its module file (or its readers), not from its repository.",
  },
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  // Scripts and configs in JavaScript (k8s/check.mjs, the CLI's bin, jest configs, …) are linted too, without type information.
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', '**/tmp'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment only in the config module of an app or lib.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='only']", message: 'No focused tests.' },
        { selector: "ThrowStatement > NewExpression[callee.name='Error']", message: 'Throw a domain error (ApiError) or a typed error class, not a bare Error.' },
      ],
    },
  },
  {
    files: ['**/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: repositoryImportPatterns }] },
  },
  {
    // Config modules, test setup and operator tools are where the environment is read.
    files: ['**/config/**/*.ts', '**/*.config.ts', '**/config.ts', '**/*.spec.ts', '**/*.int-spec.ts', '**/test/support/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/cli/**/*.ts', '**/bench/**/*.ts', '**/stack/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='only']", message: 'No focused tests.' }] },
  },
];
