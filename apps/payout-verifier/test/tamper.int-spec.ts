import { blake2b } from '@noble/hashes/blake2';
import { ClaimContractError, type HexHash } from '@rcs/chain';
import { buildClaimEpoch } from '@rcs/merkle';
import { createStores, startVerifier, type VerifierHarness, type VerifierStores } from './support/harness';
import type { Tamper } from './support/payout-world';

const blake = (text: string) => `0x${Buffer.from(blake2b(Buffer.from(text, 'utf8'), { dkLen: 32 })).toString('hex')}`;

/** Each way a pool or contract state can be wrong (issue 36): exactly one challenge, its evidence naming the check. */
const CASES: [string, string, Tamper][] = [
  ['one leaf’s amount changed', 'cumulative', { document: (doc) => void (doc.entries[1].cumulative = (BigInt(doc.entries[1].cumulative) + 1000n).toString()) }],
  ['a recipient the miner never signed', 'recipients', { document: (doc, world) => void (doc.entries[0].recipient_coldkey = world.coldkeys[world.coldkeys.length - 1]) }],
  ['a leaf dropped', 'root', { contract: (p) => ({ ...p, ...rootOf(p.leaves.slice(1)) }) }],
  ['a root that does not match its leaves', 'root', { contract: (p) => ({ ...p, root: `0x${'ab'.repeat(32)}` as HexHash }) }],
  ['an allocation whose snapshot the coordinator never served', 'snapshot_served', { snapshotNeverServed: true }],
  [
    'a cumulative amount that decreases',
    'cumulative',
    {
      document: (doc) => {
        doc.entries[2].cumulative = (BigInt(doc.entries[2].cumulative) - BigInt(doc.entries[2].units) - 1n).toString();
      },
    },
  ],
  ['an allocation served with a hash other than its uri’s', 'allocation_hash', { serveOtherBytes: true, document: (doc) => void (doc.entries[0].units = '1') }],
];

function rootOf(leaves: { hotkey: string; recipientColdkey: string; amount: bigint }[]): { root: HexHash; numOfLeaves: number; totalRao: bigint } {
  const tree = buildClaimEpoch(2, leaves);
  return { root: tree.root as HexHash, numOfLeaves: tree.entries.length, totalRao: tree.totalAmount };
}

describe('payout verifier: tampered epochs (DECISIONS §16)', () => {
  let stores: VerifierStores;
  let h: VerifierHarness;

  beforeEach(async () => {
    stores = await createStores();
    h = await startVerifier(stores);
  });

  afterEach(async () => {
    await h.close();
    await stores.release();
  });

  it.each(CASES)('%s → exactly one challenge, with evidence naming %s', async (name, check, tamper) => {
    await stores.world.publish(1);
    await stores.world.publish(2, tamper);
    const first = await h.verifier.pass();
    expect(first.judged).toEqual([
      { epoch: 1, result: 'verified', check: null },
      { epoch: 2, result: 'mismatch', check },
    ]);
    expect(first.challenged).toBe(1);

    const evidence = await fetch(`${h.url}/evidence/2`);
    expect(evidence.status).toBe(200);
    const text = await evidence.text();
    expect(JSON.parse(text)).toMatchObject({ epoch: 2, result: 'mismatch', check, inputs: { allocation_uri: stores.world.allocations.get(2)?.uri } });
    // The evidence line of each case, for the record (the closing note lists them).
    process.stdout.write(`tamper "${name}": evidence check ${check}: ${(JSON.parse(text) as { message: string }).message}\n`);
    const challenge = await stores.contract.challenge(2);
    expect(challenge).toMatchObject({ status: 'active', evidenceHash: blake(text) });
    expect((await stores.contract.epochInfo(2))?.disputed).toBe(true);
    expect(await stores.contract.challenge(1)).toBeNull();

    const again = await h.verifier.pass();
    expect([again.judged, again.challenged]).toEqual([[], 0]);
    const status = (await (await fetch(`${h.url}/status`)).json()) as { challenges: number; epochs: Record<string, number> };
    expect(status).toMatchObject({ challenges: 1, epochs: { verified: 1, mismatch: 1, unverified: 0 } });
  });

  it('the challenged epoch’s claims are locked on the dev contract (409 claims_locked)', async () => {
    await stores.world.publish(1, { contract: (p) => ({ ...p, root: `0x${'cd'.repeat(32)}` as HexHash }) });
    expect((await h.verifier.pass()).challenged).toBe(1);
    const refused = await stores.contract
      .claimSingle({ epoch: 1, index: 0, hotkey: stores.world.miners[0].address, recipientColdkey: stores.world.coldkeys[0], amount: 1n, proof: [] }, true, stores.world.miners[0])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClaimContractError);
    expect((refused as ClaimContractError).code).toBe('claims_locked');
  });

  it('answers 404 for the evidence of an epoch it did not judge a mismatch', async () => {
    await stores.world.publish(1);
    await h.verifier.pass();
    for (const epoch of ['1', '7', 'x']) expect((await fetch(`${h.url}/evidence/${epoch}`)).status).toBe(404);
  });
});
