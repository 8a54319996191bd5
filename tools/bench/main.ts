/** `npm run bench [-- name]`: runs the project's benchmarks (all by default) one after another. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = __dirname;
const available = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'main.ts')
  .map((file) => file.replace(/\.ts$/, ''));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ')}\n`);
  process.exit(2);
}
let failed = false;
for (const name of wanted.length > 0 ? wanted : available) {
  process.stdout.write(`\n== bench ${name}\n`);
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', join(here, `${name}.ts`)], { stdio: 'inherit' });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
