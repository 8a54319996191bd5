import { buildApp } from './build';
import { bundleCli, describeBundle } from './cli-bundle';

async function main(apps: string[]): Promise<number> {
  if (apps.length === 0) {
    process.stderr.write('usage: node -r @swc-node/register tools/build/main.ts <app>...\n');
    return 2;
  }
  for (const app of apps) {
    const started = Date.now();
    // The CLI is installed with npm on machines without the repository: one bundled file and a package.json.
    if (app === 'cli') {
      process.stdout.write(`cli: ${describeBundle(await bundleCli())} (${Date.now() - started} ms)\n`);
      continue;
    }
    const result = buildApp(app);
    process.stdout.write(`${app}: ${result.files} files -> ${result.main} (${Date.now() - started} ms)\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`build: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
