import { buildApp } from './build';

const apps = process.argv.slice(2);
if (apps.length === 0) {
  process.stderr.write('usage: node -r @swc-node/register tools/build/main.ts <app>...\n');
  process.exit(2);
}
for (const app of apps) {
  const started = Date.now();
  const result = buildApp(app);
  process.stdout.write(`${app}: ${result.files} files -> ${result.main} (${Date.now() - started} ms)\n`);
}
