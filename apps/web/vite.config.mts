import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const lib = (path: string) => fileURLToPath(new URL(`../../libs/${path}`, import.meta.url));

export default defineConfig({
  root,
  base: './',
  // Preact's automatic JSX runtime, as in tsconfig.json.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: { '@rcs/merkle': lib('merkle/src/index.ts'), '@rcs/contracts/ranking': lib('contracts/src/ranking/index.ts') } },
  build: { outDir: fileURLToPath(new URL('../../dist/apps/web', import.meta.url)), emptyOutDir: true, target: 'es2022' },
});
