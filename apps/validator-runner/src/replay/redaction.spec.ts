import { Redactor } from './redaction';
import { capBytes, ReplayLog } from './replay-log';

describe('Redactor', () => {
  const env = {
    HELDOUT_URL: 'https://data.example.test/shards/secret-shard-7.jsonl?sig=abc%2Fdef',
    HELDOUT_TOKEN: 'tok_live_0123456789',
    DATASET_MIX: 'fineweb:0.7,stack:0.3',
    SEED: '42',
  };
  const redactor = new Redactor(env);

  it('replaces every private value, and the decoded form, host and path of URLs, with its key', () => {
    const text = [
      'GET https://data.example.test/shards/secret-shard-7.jsonl?sig=abc%2Fdef -> 200',
      'Authorization: Bearer tok_live_0123456789',
      'mix fineweb:0.7,stack:0.3 seed 42',
      'connect ECONNREFUSED data.example.test',
      'opened /shards/secret-shard-7.jsonl',
      'decoded sig=abc/def in https://data.example.test/shards/secret-shard-7.jsonl?sig=abc/def',
    ].join('\n');
    const out = redactor.redact(text);
    for (const secret of ['tok_live_0123456789', 'fineweb:0.7', 'data.example.test', 'secret-shard-7', 'abc%2Fdef']) expect(out).not.toContain(secret);
    expect(out).toContain('[redacted:HELDOUT_URL] -> 200');
    expect(out).toContain('Bearer [redacted:HELDOUT_TOKEN]');
    expect(out).toContain('mix [redacted:DATASET_MIX] seed [redacted:SEED]');
    expect(out).toContain('ECONNREFUSED [redacted:HELDOUT_URL]');
  });

  it('replaces short values only as whole tokens, so numbers elsewhere survive', () => {
    expect(redactor.redact('seed=42, step 420, loss 1.42, id x42')).toBe('seed=[redacted:SEED], step 420, loss 1.42, id x42');
  });

  it('ignores empty values', () => {
    expect(new Redactor({ EMPTY: '' }).redact('nothing here')).toBe('nothing here');
  });
});

describe('ReplayLog', () => {
  it('redacts phase lines and output tails before capping', () => {
    const log = new ReplayLog(new Redactor({ TOKEN: 'very-private-token' }), 4096);
    log.line('prefetch', 'used very-private-token');
    log.output('benchmark', `${'x'.repeat(20_000)}\nprinted very-private-token\nloss=1\n`, false);
    const text = log.render();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).not.toContain('very-private-token');
    expect(text).toContain('prefetch: used [redacted:TOKEN]');
    expect(text).toContain('printed [redacted:TOKEN]\nloss=1\n----- end of benchmark output -----');
    expect(text).toMatch(/\[… \d+ bytes cut …\]/);
  });

  it('keeps the head and the tail of an oversized text within the cap, even across multi-byte characters', () => {
    const text = `${'é'.repeat(3000)}END`;
    const capped = capBytes(text, 1000);
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(1000);
    expect(capped.startsWith('éé')).toBe(true);
    expect(capped.endsWith('END')).toBe(true);
    expect(capBytes('short', 1000)).toBe('short');
  });
});
