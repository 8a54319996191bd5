/**
 * `npm run bench [-- name [--option=value …] …]`: runs the project's benchmarks (all by default) one after another;
 * the `--` options after a name are that benchmark's own (e.g. `npm run bench -- exposure --step=0.02`).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = __dirname;
const available = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'main.ts')
  .map((file) => file.replace(/\.ts$/, ''));
const wanted: { name: string; args: string[] }[] = [];
for (const arg of process.argv.slice(2)) {
  const last = wanted.at(-1);
  if (!arg.startsWith('--')) wanted.push({ name: arg, args: [] });
  else if (last) last.args.push(arg);
  else {
    process.stderr.write(`option ${arg} comes before any benchmark name; options follow the benchmark they belong to\n`);
    process.exit(2);
  }
}
const unknown = wanted.filter(({ name }) => !available.includes(name)).map(({ name }) => name);
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ')} (an option's value goes after "=")\n`);
  process.exit(2);
}
let failed = false;
for (const { name, args } of wanted.length > 0 ? wanted : available.map((name) => ({ name, args: [] }))) {
  process.stdout.write(`\n== bench ${name}\n`);
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', join(here, `${name}.ts`), ...args], { stdio: 'inherit' });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
