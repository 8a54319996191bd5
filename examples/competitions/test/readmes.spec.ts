import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateTaskDto } from '@rcs/contracts';

// The create-task JSON each pack's README gives an operator is a body the coordinator accepts.
const PACKS = resolve(__dirname, '..');

function createTaskBody(pack: string): Record<string, unknown> {
  const readme = readFileSync(join(PACKS, pack, 'README.md'), 'utf8');
  const block = /```json\n([\s\S]*?)\n```/.exec(readme);
  if (block === null) throw new Error(`${pack}/README.md has no json block`);
  return JSON.parse(block[1]) as Record<string, unknown>;
}

describe.each([
  ['heldout-ppl', 'standard', null],
  ['ternary', 'centerless', 'compressed_bytes'],
  ['binary', 'standard', 'compressed_bytes'],
  ['autoresearch', 'centerless', 'compressed_bytes'],
])('the %s README', (pack, mode, secondary) => {
  it('gives a create-task body the DTO accepts, pointing at the pack', () => {
    const body = createTaskBody(pack);
    const errors = validateSync(plainToInstance(CreateTaskDto, body), { whitelist: true, forbidNonWhitelisted: true });
    expect(errors.map((error) => error.toString())).toEqual([]);
    expect(body).toMatchObject({
      benchmark_command: `python3 ${pack}/bench.py`,
      result_path: 'result.json',
      allowed_patch_paths: [`${pack}/train.py`],
      max_patch_bytes: 262144,
      metric_name: 'heldout_ppl',
      metric_direction: 'minimize',
      competition_mode: mode,
      metric_resolution: 0.02,
      metric_resolution_mode: 'log',
      reference_parameter_count: 12800,
    });
    expect(body.secondary_metric_name ?? null).toBe(secondary);
  });

  it("writes the miner's local held-out shard outside the clone, where rcs submit would take it for part of the patch", () => {
    const readme = readFileSync(join(PACKS, pack, 'README.md'), 'utf8');
    const outs = [...readme.matchAll(/make_(?:autoresearch_)?heldout\.py [^\n]*--out (\S+)/g)].map((match) => match[1]);
    expect(outs.length).toBeGreaterThan(0);
    // An untracked dev.txt in the clone made rcs submit refuse the patch (a path outside train.py).
    expect(outs.filter((out) => !out.startsWith('/tmp/'))).toEqual([]);
  });
});
