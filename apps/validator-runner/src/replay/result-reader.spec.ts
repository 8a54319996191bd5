import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_PER_ITEM } from '@rcs/contracts';
import { benchmarkReason, lastMetricInOutput, metricsFromJson, perItemFromJson, readResultFile, REASON_MAX_CHARS, taskMetrics } from './result-reader';

describe('result file', () => {
  let root: string;
  let workspace: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'runner-result-'));
    workspace = join(root, 'repo');
    mkdirSync(join(workspace, 'out'), { recursive: true });
    writeFileSync(join(root, 'outside.json'), '{"loss": 0.001}');
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads the finite numbers of a JSON object, those of a nested metrics object winning', async () => {
    writeFileSync(join(workspace, 'out', 'r.json'), JSON.stringify({ loss: 1.5, name: 'x', n: null, metrics: { loss: 0.5, acc: 0.9, bad: 'NaN' } }));
    expect(await readResultFile(workspace, 'out/r.json', 1024)).toEqual({ metrics: { loss: 0.5, acc: 0.9 }, named: ['loss', 'name', 'n', 'metrics', 'loss', 'acc', 'bad'] });
  });

  it("carries a failed benchmark's one-line reason from the top-level error string", async () => {
    writeFileSync(join(workspace, 'out', 'refused.json'), JSON.stringify({ error: ' Ineligible: 12.0 % rescue, over the cap of 10 %. ' }));
    expect(await readResultFile(workspace, 'out/refused.json', 1024)).toEqual({ metrics: {}, named: ['error'], reason: 'Ineligible: 12.0 % rescue, over the cap of 10 %.' });
  });

  it('carries the per-item values of `per_item` for the coordinator\'s release rule (DECISIONS §17)', async () => {
    writeFileSync(join(workspace, 'out', 'items.json'), JSON.stringify({ loss: 0.5, per_item: [1, 0, 0.5, 1] }));
    expect(await readResultFile(workspace, 'out/items.json', 1024)).toEqual({ metrics: { loss: 0.5 }, named: ['loss', 'per_item'], perItem: [1, 0, 0.5, 1] });
  });

  it('takes per_item only as 2..MAX_PER_ITEM finite numbers', () => {
    expect(perItemFromJson({ per_item: [0, 1] })).toEqual([0, 1]);
    for (const bad of [[1], [0, 'x'], [0, null], { a: 1 }, 'x', Array.from({ length: MAX_PER_ITEM + 1 }, () => 0)]) expect(perItemFromJson({ per_item: bad })).toBeNull();
    expect(perItemFromJson([0, 1])).toBeNull();
  });

  it('takes no reason that is not one short line of printable ASCII, which bounds what a benchmark can publish', () => {
    expect(benchmarkReason({ error: 'x'.repeat(REASON_MAX_CHARS) })).toBe('x'.repeat(REASON_MAX_CHARS));
    expect(benchmarkReason({ error: 'x'.repeat(REASON_MAX_CHARS + 1) })).toBeNull();
    expect(benchmarkReason({ error: 'two\nlines' })).toBeNull();
    expect(benchmarkReason({ error: 'tab\there' })).toBeNull();
    expect(benchmarkReason({ error: 'caf\u00e9' })).toBeNull();
    expect(benchmarkReason({ error: '   ' })).toBeNull();
    expect(benchmarkReason({ error: 3 })).toBeNull();
    expect(benchmarkReason({ metrics: { error: 'nested' } })).toBeNull();
    expect(benchmarkReason(['error'])).toBeNull();
  });

  it('refuses paths and symlinks leading outside the workspace, directories, oversized and non-JSON files', async () => {
    symlinkSync(join(root, 'outside.json'), join(workspace, 'link.json'));
    symlinkSync('/etc', join(workspace, 'etc'));
    writeFileSync(join(workspace, 'big.json'), `{"loss": 1, "pad": "${'x'.repeat(2000)}"}`);
    writeFileSync(join(workspace, 'text.json'), 'loss=1');
    writeFileSync(join(workspace, 'array.json'), '[1, 2]');
    expect(await readResultFile(workspace, '../outside.json', 1024)).toEqual({ problem: expect.stringMatching(/outside the workspace/) });
    expect(await readResultFile(workspace, '/etc/hostname', 1024)).toEqual({ problem: expect.stringMatching(/outside the workspace/) });
    expect(await readResultFile(workspace, 'link.json', 1024)).toEqual({ problem: expect.stringMatching(/resolves outside/) });
    expect(await readResultFile(workspace, 'etc/hostname', 1024)).toEqual({ problem: expect.stringMatching(/resolves outside/) });
    expect(await readResultFile(workspace, 'out', 1024)).toEqual({ problem: expect.stringMatching(/not a regular file/) });
    expect(await readResultFile(workspace, 'big.json', 1024)).toEqual({ problem: expect.stringMatching(/more than the 1024/), tooLarge: true });
    expect(await readResultFile(workspace, 'text.json', 1024)).toEqual({ problem: expect.stringMatching(/not JSON/) });
    expect(await readResultFile(workspace, 'array.json', 1024)).toEqual({ problem: expect.stringMatching(/not a JSON object/) });
    expect(await readResultFile(workspace, 'missing.json', 1024)).toEqual({ problem: expect.stringMatching(/wrote no missing.json/) });
  });

  it('metricsFromJson answers null for anything but an object', () => {
    expect(metricsFromJson([1])).toBeNull();
    expect(metricsFromJson('x')).toBeNull();
    expect(metricsFromJson({ a: Infinity, b: 2 })).toEqual({ b: 2 });
  });
});

describe('lastMetricInOutput', () => {
  it('takes the last `name=value` or `name: value` of the output', () => {
    const output = 'step 1 loss=2.5\nloss: 1.25e-1\nval_loss=9\ntrain.loss=7\nINFO loss = 0.75 done\n';
    expect(lastMetricInOutput(output, 'loss')).toBe(0.75);
    expect(lastMetricInOutput('loss=1\nloss: 3', 'loss')).toBe(3);
    expect(lastMetricInOutput('heldout_ppl: 12.5,', 'heldout_ppl')).toBe(12.5);
  });

  it('ignores other names that contain the metric, words and non-finite values', () => {
    expect(lastMetricInOutput('val_loss=1\nmy-loss=2\nloss=nan\nloss=abc', 'loss')).toBeNull();
    expect(lastMetricInOutput('loss=1e999', 'loss')).toBeNull();
    expect(lastMetricInOutput('a.b=1', 'a.b')).toBe(1);
    expect(lastMetricInOutput('axb=1', 'a.b')).toBeNull();
  });
});

describe('taskMetrics', () => {
  it("keeps only the task's metric and secondary metric, never another key the benchmark wrote", () => {
    const written = { loss: 1, acc: 2, '{"user": "alice", "label": 1}': 1, rows: 4 };
    expect(taskMetrics(written, ['loss', 'acc'])).toEqual({ loss: 1, acc: 2 });
    expect(taskMetrics(written, ['loss', null])).toEqual({ loss: 1 });
    expect(taskMetrics({ rows: 4 }, ['loss', null])).toEqual({});
  });
});
