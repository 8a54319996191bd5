import { encodeAddress } from '@polkadot/util-crypto';
import { cryptoReady } from '@rcs/auth';
import { digestSnapshot } from './snapshot-digest';

const key = (n: number, prefix = 42): string => encodeAddress(new Uint8Array(32).fill(n), prefix);
const HOTKEYS = [key(1), key(2), key(3)];

const snapshot = (competitions: { slug: string; miners: [string, number][] }[]) =>
  new TextEncoder().encode(
    JSON.stringify({
      generated_at: '2026-11-28T12:00:00.000Z',
      score_ema_days: 10,
      competition_count: competitions.length,
      reward_policy: { version: 2, pools: [], validator_weights: { mode: 'local', targets: [], version_key: 1 } },
      competitions: competitions.map(({ slug, miners }) => ({ competition_id: slug, slug, weight: 1 / competitions.length, miners: miners.map(([miner_hotkey, score]) => ({ miner_hotkey, score })) })),
    }),
  );

describe('digestSnapshot', () => {
  beforeAll(() => cryptoReady());

  it('refuses a snapshot whose competition lists one key twice, under two spellings, naming it', () => {
    const digest = digestSnapshot(snapshot([{ slug: 'a', miners: [[key(2), 1], [key(3), 1], [key(2, 0), 5]] }]), HOTKEYS);
    expect(digest).toEqual({
      kind: 'refused',
      summary: { generated_at: '2026-11-28T12:00:00.000Z', mode: 'local' },
      code: 'duplicate_hotkey',
      message: `competition a lists hotkey ${key(2)} as ${key(2)} and as ${key(2, 0)}; the snapshot is refused whole, not summed`,
    });
  });

  it('refuses one spelling written twice too', () => {
    const digest = digestSnapshot(snapshot([{ slug: 'a', miners: [[key(3, 7), 1], [key(3, 7), 1]] }]), HOTKEYS);
    expect(digest).toMatchObject({ kind: 'refused', code: 'duplicate_hotkey', message: expect.stringContaining(`lists hotkey ${key(3)} twice as ${key(3, 7)}`) });
  });

  it('takes one key in two competitions (that is how a miner earns in both), whatever its spelling', () => {
    const digest = digestSnapshot(snapshot([{ slug: 'a', miners: [[key(2), 1]] }, { slug: 'b', miners: [[key(2, 5), 1], [key(3), 1]] }]), HOTKEYS);
    expect(digest).toMatchObject({ kind: 'vector', vector: { entries: [{ uid: 1, weight: 0.75 }, { uid: 2, weight: 0.25 }] } });
  });

  it('says how a document breaks the contract', () => {
    expect(digestSnapshot(new TextEncoder().encode('{'), HOTKEYS)).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/breaks the contract: the body is not JSON/) });
    expect(digestSnapshot(new TextEncoder().encode('{"generated_at":"x"}'), HOTKEYS)).toMatchObject({ kind: 'invalid', summary: null });
  });
});
