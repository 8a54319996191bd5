import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasRequiredMessages, readContractMetadata } from './contract-metadata';
import { inkMetadata } from './testing/ink-metadata';

describe('readContractMetadata', () => {
  let dir: string;
  const write = (name: string, content: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rcs-chain-metadata-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([5, 4, 3] as const)('reads the message labels of ink! metadata version %i', async (version) => {
    const path = write(`v${version}.json`, inkMetadata(['publish_epoch', 'claim_single', 'challenge_epoch', 'veto'], version));

    expect(await readContractMetadata(path)).toEqual({
      exists: true,
      messages: ['publish_epoch', 'claim_single', 'challenge_epoch', 'veto'],
      error: null,
    });
  });

  it('reports a missing file without throwing', async () => {
    const summary = await readContractMetadata(join(dir, 'absent.json'));

    expect(summary).toMatchObject({ exists: false, messages: [] });
    expect(summary.error).toContain('absent.json');
  });

  it.each([
    ['not JSON', '{ nope'],
    ['JSON that is not ink! metadata', { hello: 'world' }],
  ])('reports %s as an error with no messages', async (_, content) => {
    const summary = await readContractMetadata(write('bad.json', content));

    expect(summary.exists).toBe(true);
    expect(summary.messages).toEqual([]);
    expect(summary.error).toMatch(/not ink! metadata/);
  });

  it('requires publish_epoch, claim_single and challenge_epoch', () => {
    expect(hasRequiredMessages(['challenge_epoch', 'claim_single', 'publish_epoch', 'other'])).toBe(true);
    expect(hasRequiredMessages(['publish_epoch', 'claim_single'])).toBe(false);
  });
});
