import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { transformSync } from '@swc-node/core';
import { readDefaultTsConfig, tsCompilerOptionsToSwcConfig } from '@swc-node/register/read-default-tsconfig';

/**
 * Compiles one app to plain CommonJS under dist/apps/<app>/, mirroring the repository layout
 * (dist/apps/<app>/apps/<app>/src/main.js, dist/apps/<app>/libs/<lib>/src/…), so that
 * `node dist/apps/<app>/apps/<app>/src/main.js` runs without @swc-node/register.
 *
 * It uses the very transform `node -r @swc-node/register` applies at dev time (same tsconfig,
 * decorator metadata, class fields), with the `@rcs/*` path aliases rewritten to relative
 * requires. Only files reachable from the app's main.ts are emitted, so tests and dev-only
 * helpers never reach an image. Types are checked by the `typecheck` target, not here.
 */

export interface BuildResult {
  app: string;
  outDir: string;
  main: string;
  files: number;
}

const ROOT = resolve(__dirname, '..', '..');

export function buildApp(app: string, outDir = join(ROOT, 'dist', 'apps', app)): BuildResult {
  const root = ROOT;
  const entry = join(root, 'apps', app, 'src', 'main.ts');
  const compilerOptions = readDefaultTsConfig(join(root, 'tsconfig.base.json'));
  rmSync(outDir, { recursive: true, force: true });
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const options = { ...tsCompilerOptionsToSwcConfig(compilerOptions, file), module: 'commonjs' as const, sourcemap: true };
    const output = transformSync(readFileSync(file, 'utf8'), file, options);
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${output.code}\n//# sourceMappingURL=${target.split('/').pop() as string}.map\n`);
    if (output.map !== undefined) writeFileSync(`${target}.map`, output.map);
    for (const specifier of relativeRequires(output.code)) {
      queue.push(resolveSource(dirname(file), specifier, file));
    }
  }
  const main = join(outDir, 'apps', app, 'src', 'main.js');
  return { app, outDir, main, files: seen.size };
}

/** Every relative `require("./x")` of a compiled CommonJS module (path aliases are relative by now). */
export function relativeRequires(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/require\((["'])(\.{1,2}\/[^"']*)\1\)/g)) found.push(match[2] as string);
  return found;
}

function resolveSource(fromDir: string, specifier: string, importer: string): string {
  const base = resolve(fromDir, specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next candidate
    }
  }
  throw new UnresolvedImportError(specifier, relative(ROOT, importer));
}

export class UnresolvedImportError extends Error {
  constructor(specifier: string, importer: string) {
    super(`cannot resolve ${specifier} imported by ${importer}`);
    this.name = 'UnresolvedImportError';
  }
}
