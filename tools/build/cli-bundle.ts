import { builtinModules } from 'node:module';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { transformSync } from '@swc-node/core';
import { readDefaultTsConfig, tsCompilerOptionsToSwcConfig } from '@swc-node/register/read-default-tsconfig';

/**
 * `npx nx build cli`: the installable `rcs` package under dist/apps/cli — one CommonJS file
 * (bin/rcs.js) holding the CLI and the @rcs/* libraries it reaches, and a package.json whose
 * `dependencies` are exactly the npm packages that file still requires, at the versions of the
 * workspace's package-lock.json. `npm pack dist/apps/cli` gives the tarball; no TypeScript, no
 * path aliases, no @swc-node/register and nothing of the repository is needed to run it.
 *
 * Sources are compiled by the transform `node -r @swc-node/register` and the app builds use
 * (decorators with metadata, class fields), then bundled by rolldown. npm packages stay external:
 * several carry WASM or native parts (@polkadot/*), and npm installs them by the manifest.
 */

export interface CliPackage {
  name: string;
  version: string;
  bin: Record<string, string>;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
  [field: string]: unknown;
}

export interface CliBundle {
  outDir: string;
  /** The executable, relative to outDir. */
  bin: string;
  manifest: CliPackage;
  bytes: number;
}

const ROOT = resolve(__dirname, '..', '..');
const CLI_ROOT = join(ROOT, 'apps', 'cli');
const BIN = 'bin/rcs.js';

export async function bundleCli(outDir = join(ROOT, 'dist', 'apps', 'cli')): Promise<CliBundle> {
  const compilerOptions = readDefaultTsConfig(join(ROOT, 'tsconfig.base.json'));
  const aliases = new Map(Object.entries(compilerOptions.paths ?? {}).map(([alias, [target]]) => [alias, resolve(ROOT, target as string)]));
  // rolldown is an ES module; Node 20.19+ loads it from this CommonJS file.
  const { rolldown } = await import('rolldown');
  const build = await rolldown({
    input: join(CLI_ROOT, 'src', 'main.ts'),
    platform: 'node',
    // npm packages (and Node's own modules) are required at run time; only the workspace's sources are bundled.
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !aliases.has(id),
    // The libraries' index files re-export NestJS guards, Redis stores and DTOs the CLI never calls; their
    // modules have no top-level effects, so what the CLI does not reach is left out (with its npm imports).
    treeshake: { moduleSideEffects: (id, external) => external || !id.startsWith(join(ROOT, 'libs')) },
    plugins: [
      {
        name: 'rcs-workspace',
        resolveId(id) {
          if (id === '@rcs/testing' || id.startsWith('@rcs/testing/')) throw new TestHelperImportError(id);
          return aliases.get(id) ?? null;
        },
        transform(code, id) {
          if (!id.endsWith('.ts')) return null;
          const options = { ...tsCompilerOptionsToSwcConfig(compilerOptions, id), module: 'es6' as const, sourcemap: false };
          return { code: transformSync(code, id, options).code, moduleType: 'js' };
        },
      },
    ],
  });
  rmSync(outDir, { recursive: true, force: true });
  const { output } = await build.write({ format: 'cjs', file: join(outDir, BIN), banner: '#!/usr/bin/env node', sourcemap: false });
  await build.close();
  const [chunk] = output;
  if (output.length !== 1 || chunk.type !== 'chunk') throw new BundleShapeError(output.map((item) => item.fileName));
  chmodSync(join(outDir, BIN), 0o755);

  const manifest = packageManifest(externalPackages([...chunk.imports, ...chunk.dynamicImports]));
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, 'README.md'), readme(manifest));
  return { outDir, bin: BIN, manifest, bytes: Buffer.byteLength(chunk.code) };
}

/** The npm package names behind the bundle's external imports (`@polkadot/util-crypto`, `yargs`), Node's own modules left out. */
export function externalPackages(imports: string[]): string[] {
  const builtins = new Set(builtinModules);
  const names = imports
    .filter((id) => !id.startsWith('node:') && !builtins.has(id) && !builtins.has(id.split('/')[0] as string))
    .map((id) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/'));
  return [...new Set(names)].sort();
}

/** apps/cli/package.json with the `dependencies` the bundle requires, at the versions package-lock.json installs. */
function packageManifest(packages: string[]): CliPackage {
  const source = JSON.parse(readFileSync(join(CLI_ROOT, 'package.json'), 'utf8')) as CliPackage;
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  const dependencies: Record<string, string> = {};
  for (const name of packages) {
    const version = lock.packages[`node_modules/${name}`]?.version;
    if (version === undefined) throw new UnlockedDependencyError(name);
    dependencies[name] = version;
  }
  const bin = Object.fromEntries(Object.keys(source.bin).map((command) => [command, BIN]));
  return { ...source, bin, files: ['bin', 'README.md'], dependencies };
}

function readme(manifest: CliPackage): string {
  return [
    `# ${manifest.name}`,
    '',
    `\`rcs\` ${manifest.version}: ${String(manifest['description'] ?? '')}`,
    '',
    'Run `rcs --help` for the commands, and see docs/miners.md in the repository for a miner round.',
    'The `validator` commands (other than `validator status`) run the validator runner of a repository checkout;',
    'from this package they refuse with exit code 2.',
    '',
  ].join('\n');
}

export class TestHelperImportError extends Error {
  constructor(specifier: string) {
    super(`the CLI imports ${specifier}; test helpers must not reach the packed CLI`);
    this.name = 'TestHelperImportError';
  }
}

export class BundleShapeError extends Error {
  constructor(files: string[]) {
    super(`expected one chunk (${BIN}), got: ${files.join(', ')}`);
    this.name = 'BundleShapeError';
  }
}

export class UnlockedDependencyError extends Error {
  constructor(name: string) {
    super(`the CLI requires ${name}, which package-lock.json does not install at node_modules/${name}`);
    this.name = 'UnlockedDependencyError';
  }
}

/** The bundle's path relative to the repository, for messages. */
export function describeBundle(bundle: CliBundle): string {
  return `${relative(ROOT, join(bundle.outDir, bundle.bin))} (${bundle.bytes} bytes; dependencies: ${Object.keys(bundle.manifest.dependencies).join(', ')})`;
}
