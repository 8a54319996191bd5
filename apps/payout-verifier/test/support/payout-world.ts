import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aToHex } from '@polkadot/util';
import { keypairFromUri, recipientUpdateMessage } from '@rcs/auth';
import type { DevClaimContract, HexHash } from '@rcs/chain';
import type { AllocationDocument, RecipientRecordDto } from '@rcs/contracts';
import { buildClaimEpoch, splitEpoch } from '@rcs/merkle';
import { snapshotOf } from '@rcs/testing';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
export const BUDGET = 1_000_000_000n;
const PUBLISHER = { address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' };

/** What a test may make wrong in one epoch before it is published (the pool or the contract state). */
export interface Tamper {
  /** Changes the document (after the honest build) before it is hashed, served and its root built. */
  document?: (doc: AllocationDocument, world: PayoutWorld) => void;
  /** The root, leaf count and total published on the contract, from the honest ones. */
  contract?: (published: { root: HexHash; numOfLeaves: number; totalRao: bigint; leaves: { hotkey: string; recipientColdkey: string; amount: bigint }[] }) => {
    root: HexHash;
    numOfLeaves: number;
    totalRao: bigint;
  };
  /** The coordinator forgets the epoch's snapshot (it never served it). */
  snapshotNeverServed?: boolean;
  /** The uri names the honest document's SHA-256 but the pool serves the tampered bytes. */
  serveOtherBytes?: boolean;
}

/**
 * A stand-in for the pool and the coordinator over real HTTP (the routes the verifier reads, DECISIONS
 * §16), whose epochs are built honestly as §8 says (the `@rcs/merkle` split, cumulative amounts,
 * recipients the miners signed, the tree) and published on the dev contract in Redis, unless a test
 * tampers with one.
 */
export class PayoutWorld {
  readonly snapshots = new Map<string, string>();
  readonly allocations = new Map<number, { uri: string; bytes: string }>();
  readonly histories = new Map<string, RecipientRecordDto[]>();
  coordinatorDown = false;
  /** While not null, snapshot reads are held here unanswered (a coordinator that hangs). */
  heldSnapshotReads: ServerResponse[] | null = null;
  url = '';
  /** The pool's clock: each rollover reads recipients a minute after the last. */
  private clock = Date.UTC(2026, 0, 1);
  private server: Server | null = null;
  private previous: AllocationDocument | null = null;

  private constructor(
    readonly contract: DevClaimContract,
    readonly miners: KeyringPair[],
    readonly coldkeys: string[],
  ) {}

  static async create(contract: DevClaimContract, minerCount = 6): Promise<PayoutWorld> {
    const miners = await Promise.all(Array.from({ length: minerCount }, (_, i) => keypairFromUri(`//Verifier//miner${i}`)));
    const coldkeys = (await Promise.all(Array.from({ length: minerCount + 1 }, (_, i) => keypairFromUri(`//Verifier//cold${i}`)))).map((pair) => pair.address);
    const world = new PayoutWorld(contract, miners, coldkeys);
    // Every miner but the last signs a recipient: the last is paid nothing until it does.
    miners.slice(0, -1).forEach((miner, i) => world.signRecipient(miner, coldkeys[i], 'recipient', world.between()));
    await world.start();
    return world;
  }

  /** A time after the last rollover and before the next. */
  between(): Date {
    return new Date(this.clock + 1);
  }

  /** A recipient record the miner really signed, stored as the pool stores it. */
  signRecipient(miner: KeyringPair, coldkey: string, kind: 'recipient' | 'declared', at: Date): void {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const signature = u8aToHex(miner.sign(recipientUpdateMessage(timestamp, coldkey)));
    const records = this.histories.get(miner.address) ?? [];
    records.push({ recipient_coldkey: coldkey, signed_coldkey: coldkey, timestamp, signature, route: 'PUT /api/v1/miners/recipient-coldkey', kind, recorded_at: at.toISOString() });
    this.histories.set(miner.address, records);
  }

  /** The newest signed recipient of each miner (what an honest rollover reads). */
  private recipientOf(hotkey: string): string | null {
    const records = this.histories.get(hotkey) ?? [];
    return records.filter((r) => r.kind === 'recipient').at(-1)?.recipient_coldkey ?? records.at(-1)?.recipient_coldkey ?? null;
  }

  /** Builds epoch `epoch` from a fresh snapshot scoring the miners, serves it and publishes it (tampered as asked). */
  async publish(epoch: number, tamper: Tamper = {}): Promise<AllocationDocument> {
    const scores = this.miners.map((miner, i): [string, number] => [miner.address, 1 + ((epoch * 7 + i * 3) % 11)]);
    const snapshot = JSON.stringify({ ...snapshotOf(scores), generated_at: new Date(Date.UTC(2026, 0, 1, 0, epoch)).toISOString() });
    const snapshotSha = sha256(snapshot);
    if (!tamper.snapshotNeverServed) this.snapshots.set(snapshotSha, snapshot);
    const doc = this.honestDocument(epoch, snapshotSha, scores);
    const honestBytes = JSON.stringify(doc);
    tamper.document?.(doc, this);
    const bytes = JSON.stringify(doc);
    const uri = `${this.url}/claims/epoch/${epoch}/allocation?sha256=${sha256(tamper.serveOtherBytes ? honestBytes : bytes)}`;
    this.allocations.set(epoch, { uri, bytes });
    const leaves = doc.entries.flatMap((e) => (e.recipient_coldkey === null ? [] : [{ hotkey: e.hotkey, recipientColdkey: e.recipient_coldkey, amount: BigInt(e.cumulative) }]));
    const tree = buildClaimEpoch(epoch, leaves);
    const honest = { root: tree.root as HexHash, numOfLeaves: tree.entries.length, totalRao: tree.totalAmount, leaves };
    const published = tamper.contract ? tamper.contract(honest) : honest;
    await this.contract.publishEpoch({ epoch, root: published.root, numOfLeaves: published.numOfLeaves, totalRao: published.totalRao, uri }, PUBLISHER);
    this.previous = doc;
    return doc;
  }

  private honestDocument(epoch: number, snapshotSha: string, scores: [string, number][]): AllocationDocument {
    this.clock += 60_000;
    const carriedIn = BigInt(this.previous?.carried_over ?? '0');
    const split = splitEpoch(BUDGET + carriedIn, [{ competitionId: 'task-1', slug: 'alpha', weight: 1, poolId: 'main', scope: 'competition_only', miners: scores.map(([hotkey, score]) => ({ hotkey, score })) }], []);
    const cumulative = new Map((this.previous?.entries ?? []).map((e) => [e.hotkey, BigInt(e.cumulative)]));
    for (const [hotkey, units] of split.units) cumulative.set(hotkey, (cumulative.get(hotkey) ?? 0n) + units);
    const hotkeys = [...cumulative.keys()].sort();
    return {
      epoch,
      snapshot_sha256: snapshotSha,
      snapshot_generated_at: null,
      snapshot_stale: false,
      policy_version: 2,
      budget: BUDGET.toString(),
      carried_in: carriedIn.toString(),
      carried_over: split.carried.toString(),
      recipients_at: new Date(this.clock).toISOString(),
      entries: hotkeys.map((hotkey) => ({
        hotkey,
        recipient_coldkey: this.recipientOf(hotkey),
        units: (split.units.get(hotkey) ?? 0n).toString(),
        cumulative: (cumulative.get(hotkey) ?? 0n).toString(),
        competitions: (split.competitions.get(hotkey) ?? []).map((c) => ({ competition_id: c.competitionId, slug: c.slug, score: c.score, units: c.units.toString() })),
      })),
    };
  }

  private async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      let match: RegExpExecArray | null;
      if ((match = /^\/api\/v1\/reward-snapshots\/([0-9a-f]{64})$/.exec(path))) {
        if (this.coordinatorDown) return void res.destroy();
        if (this.heldSnapshotReads) return void this.heldSnapshotReads.push(res);
        const body = this.snapshots.get(match[1]);
        return send(body === undefined ? 404 : 200, body ?? '{"detail":{"error":"reward_snapshot_not_found"}}');
      }
      if (path === '/claims/epochs') return send(200, JSON.stringify({ epochs: [...this.allocations.keys()].sort((a, b) => b - a) }));
      if ((match = /^\/claims\/epoch\/([0-9]+)$/.exec(path))) {
        const allocation = this.allocations.get(Number(match[1]));
        return allocation ? send(200, JSON.stringify({ epoch: Number(match[1]), allocation_uri: allocation.uri })) : send(404, '{}');
      }
      if ((match = /^\/claims\/epoch\/([0-9]+)\/allocation$/.exec(path))) {
        const allocation = this.allocations.get(Number(match[1]));
        return allocation ? send(200, allocation.bytes) : send(404, '{}');
      }
      if ((match = /^\/api\/v1\/miners\/recipient-coldkey\/([^/]+)\/history$/.exec(path))) {
        const records = this.histories.get(match[1]);
        return records ? send(200, JSON.stringify({ hotkey: match[1], records })) : send(404, '{}');
      }
      send(404, '{}');
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.heldSnapshotReads?.forEach((res) => res.destroy());
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
