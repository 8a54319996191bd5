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
    expect(out).toContain('mix [redacted:DATASET_MIX] seed 42');
    expect(out).toContain('ECONNREFUSED [redacted:HELDOUT_URL]');
  });

  it('leaves private values under 6 characters alone, so exit codes and timestamps stay readable (§6)', () => {
    const short = new Redactor({ SEED: '42', SHARDS: '1', FLAG: 'true', MIX: 'mix-a' });
    const text = 'exited with code 1 at 12:42:01; seed=42 flag true mix-a';
    expect(short.redact(text)).toBe(text);
    expect(short.redactPublic(text)).toBe(text);
  });

  it('redacts URLs, tokens, digests and the rotation number whatever their length, short ones as whole tokens', () => {
    const short = new Redactor({ A_URL: 'x://q', A_TOKEN: 'k9', A_SHA256: 'ab12', HF_TOKEN: 'hf1' }, { AUTORESEARCH_HELDOUT_SYNC_NUMBER: '7f' });
    expect(short.redact('k9 at x://q sha ab12 hf1 rotation 7f, step k90 7ff')).toBe(
      '[redacted:A_TOKEN] at [redacted:A_URL] sha [redacted:A_SHA256] [redacted:HF_TOKEN] rotation [redacted:AUTORESEARCH_HELDOUT_SYNC_NUMBER], step k90 7ff',
    );
  });

  it('names no private variable in the public form', () => {
    expect(redactor.redactPublic('Bearer tok_live_0123456789 on data.example.test')).toBe('Bearer [redacted] on [redacted]');
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
