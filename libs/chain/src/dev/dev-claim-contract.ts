import { blake2b } from '@noble/hashes/blake2';
import { encodeClaimLeaf, fromHex, hashLeaf, toHex, verifyAuditPath } from '@rcs/merkle';
import type { Redis } from 'ioredis';
import { accountIdOf, toSs58 } from '../address';
import { errorText } from '../errors';
import { ClaimContractError, claimStateOf, REQUIRED_CLAIM_CONTRACT_MESSAGES } from '../ports/claim-contract.port';
import { claimRefusal, EPOCH_REFUSALS } from '../ports/claim-rules';
import type { ClaimContractErrorCode, ClaimContractEvent, ClaimContractPort, ClaimContractState, ClaimData, ClaimReceipt, ContractCaller, ContractEpoch, ContractTxReceipt, HexHash, OnchainStatus, PublishEpochArgs } from '../ports/claim-contract.port';
import type { DevChain } from './dev-chain';
import { devChainKey, sharedGenesisKey } from './dev-weights-store';

/** The dev contract only records who called; any key pair (or just an address) will do. */
type CallerAddress = Pick<ContractCaller, 'address'>;

const U64_MAX = (1n << 64n) - 1n;
const U32_MAX = 0xffff_ffff;
/** Claims of one hotkey race on one field; a loser re-reads and tries again at most this often. */
const MAX_CLAIM_ATTEMPTS = 64;

export interface DevClaimContractOptions {
  /** Blocks between publication and `claims_open_at` (the challenge window). */
  challengeBlocks?: number;
  /** `bond_rao` recorded with every epoch. */
  bondRao?: bigint;
}

/** A challenge as the dev contract keeps it (the real contract only emits events for these). */
export interface DevChallenge {
  epoch: number;
  evidenceHash: HexHash;
  challenger: string;
  challengedAtBlock: number;
  status: 'active' | 'upheld' | 'dismissed';
  beneficiary: string | null;
}

/** One paid claim, in the order the dev contract accepted them. */
export interface DevClaimRecord {
  epoch: number;
  index: number;
  hotkey: string;
  recipientColdkey: string;
  /** The leaf's cumulative amount. */
  amount: string;
  paidRao: string;
  transfer: boolean;
  caller: string;
  block: number;
  txHash: HexHash;
}

// Each script re-checks, atomically, what the TypeScript side read before it decided; a changed
// read answers 'retry'. Amounts stay decimal strings (u64 does not fit a Lua number); HINCRBY is int64-exact.
const PUBLISH = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 'epoch_exists' end
local latest = redis.call('GET', KEYS[1])
if latest and tonumber(latest) >= tonumber(ARGV[1]) then return 'epoch_not_newer' end
redis.call('HSET', KEYS[2], 'root', ARGV[2], 'num_of_leaves', ARGV[3], 'total_rao', ARGV[4], 'spent_rao', '0',
  'disputed', '0', 'claims_open_at', ARGV[5], 'bond_rao', ARGV[6], 'uri', ARGV[7], 'published_block', ARGV[8], 'publisher', ARGV[9])
redis.call('SET', KEYS[1], ARGV[1])
return 'ok'`;

const CLAIM = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'epoch_not_claimable' end
if redis.call('HGET', KEYS[2], 'disputed') ~= '0' then return 'claims_locked' end
if (redis.call('HGET', KEYS[3], ARGV[2]) or '') ~= ARGV[3] then return 'retry' end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[4])
redis.call('HINCRBY', KEYS[2], 'spent_rao', ARGV[5])
redis.call('RPUSH', KEYS[4], ARGV[6])
return 'ok'`;

const CHALLENGE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'unknown_epoch' end
if redis.call('HGET', KEYS[1], 'disputed') ~= '0' then return 'already_disputed' end
redis.call('HSET', KEYS[1], 'disputed', '1')
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], 'evidence_hash', ARGV[1], 'challenger', ARGV[2], 'block', ARGV[3], 'status', 'active')
return 'ok'`;

const RESOLVE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'unknown_epoch' end
if redis.call('HGET', KEYS[2], 'status') ~= 'active' then return 'not_disputed' end
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[2], 'status', 'upheld', 'beneficiary', ARGV[2])
  redis.call('HSET', KEYS[1], 'bond_rao', '0')
else
  redis.call('HSET', KEYS[2], 'status', 'dismissed', 'beneficiary', ARGV[2])
  redis.call('HSET', KEYS[1], 'disputed', '0')
end
return 'ok'`;

/**
 * The dev chain's claim contract: the messages and storage of the real one (DECISIONS §8), kept in
 * Redis under the stack's key prefix so that every process of one local stack (the pool publishing,
 * the coordinator reporting, the demo claiming) sees one contract (DECISIONS §9). Every state change
 * is one Lua script; claims verify the Merkle proof against the stored root before paying
 * `amount − claimed`.
 */
export class DevClaimContract implements ClaimContractPort {
  readonly #genesisKey: string;
  #sharedGenesis: Promise<number> | null = null;
  readonly #keys: { latest: string; claimed: string; ledger: string; txCounter: string; epoch: (epoch: number) => string; challenge: (epoch: number) => string };
  readonly #challengeBlocks: number;
  readonly #bondRao: bigint;

  constructor(
    private readonly chain: DevChain,
    private readonly redis: Redis,
    keyPrefix: string,
    options: DevClaimContractOptions = {},
  ) {
    // The first process of a stack to use the contract fixes block 0 for all of them.
    this.#genesisKey = sharedGenesisKey(keyPrefix);
    const base = devChainKey(keyPrefix, 'claim-contract');
    this.#keys = {
      latest: `${base}:latest`,
      claimed: `${base}:claimed`,
      ledger: `${base}:ledger`,
      txCounter: `${base}:tx`,
      epoch: (epoch) => `${base}:epoch:${epoch}`,
      challenge: (epoch) => `${base}:challenge:${epoch}`,
    };
    this.#challengeBlocks = options.challengeBlocks ?? 0;
    this.#bondRao = options.bondRao ?? 0n;
  }

  /** Never rejects: a Redis failure is reported as an unreachable chain. */
  async status(): Promise<OnchainStatus> {
    let latestBlock: number | null = null;
    let error: string | null = null;
    try {
      latestBlock = await this.currentBlock();
    } catch (failure) {
      error = `dev chain state unreachable: ${errorText(failure)}`;
    }
    return {
      configured: true,
      ws_url: 'dev://local',
      contract: 'dev',
      metadata_path: 'dev://builtin',
      metadata_exists: true,
      metadata_messages: [...REQUIRED_CLAIM_CONTRACT_MESSAGES],
      required_messages_present: true,
      chain_reachable: error === null,
      latest_block: latestBlock,
      contract_info_present: true,
      contract_account_free: 0,
      contract_account_reserved: 0,
      error,
    };
  }

  /** The dev contract is its own metadata: nothing to check. */
  checkMetadata(): Promise<void> {
    return Promise.resolve();
  }

  async latestPublishedEpoch(): Promise<number | null> {
    const latest = await this.redis.get(this.#keys.latest);
    return latest === null ? null : Number(latest);
  }

  async epochInfo(epoch: number): Promise<ContractEpoch | null> {
    checkEpoch(epoch);
    return epochOf(await this.redis.hgetall(this.#keys.epoch(epoch)));
  }

  async claimedCumulativeRao(hotkey: string): Promise<bigint> {
    return BigInt((await this.redis.hget(this.#keys.claimed, accountHex(hotkey))) ?? '0');
  }

  async claimState(): Promise<ClaimContractState> {
    const latest = await this.latestPublishedEpoch();
    const epoch = latest === null ? null : await this.epochInfo(latest);
    return claimStateOf(latest, epoch, await this.currentBlock());
  }

  async publishEpoch(args: PublishEpochArgs, publisher: CallerAddress): Promise<ContractTxReceipt> {
    checkEpoch(args.epoch);
    checkU32(args.numOfLeaves, 'num_of_leaves');
    checkU64(args.totalRao, 'total_rao');
    const root = toHex(fromHexHash(args.root, 'root'));
    const block = await this.currentBlock();
    const txHash = await this.#txHash('publish_epoch', args.epoch);
    const outcome = await this.#eval(PUBLISH, [this.#keys.latest, this.#keys.epoch(args.epoch)], [
      String(args.epoch),
      root,
      String(args.numOfLeaves),
      args.totalRao.toString(),
      String(block + this.#challengeBlocks),
      this.#bondRao.toString(),
      args.uri,
      String(block),
      toSs58(publisher.address),
    ]);
    refuse(outcome, { epoch_exists: `epoch ${args.epoch} is already published`, epoch_not_newer: `epoch ${args.epoch} is not newer than the latest published epoch` });
    return { block, txHash, events: [{ name: 'EpochPublished', epoch: args.epoch, root, totalRao: args.totalRao, uri: args.uri }] };
  }

  async claimSingle(data: ClaimData, transfer: boolean, caller: CallerAddress): Promise<ClaimReceipt> {
    checkEpoch(data.epoch);
    checkU32(data.index, 'index');
    checkU64(data.amount, 'amount');
    const hotkey = accountHex(data.hotkey);
    const proof = data.proof.map((hash) => fromHexHash(hash, 'proof'));
    const leaf = encodeClaimLeaf({ epoch: data.epoch, index: data.index, hotkey: accountIdOf(data.hotkey), recipientColdkey: accountIdOf(data.recipientColdkey), amount: data.amount });
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt += 1) {
      const [latest, fields, claimedBefore, block] = await Promise.all([
        this.redis.get(this.#keys.latest),
        this.redis.hgetall(this.#keys.epoch(data.epoch)),
        this.redis.hget(this.#keys.claimed, hotkey),
        this.currentBlock(),
      ]);
      const claimed = BigInt(claimedBefore ?? '0');
      const state = { epoch: epochOf(fields), latest: latest === null ? null : Number(latest), block, claimed };
      const refused = claimRefusal(data, state, (epoch) => verifyAuditPath(hashLeaf(leaf), data.index, epoch.numOfLeaves, proof, fromHex(epoch.root)));
      if (refused !== null) throw new ClaimContractError(refused.code, refused.why);
      const paid = data.amount - claimed;
      const txHash = await this.#txHash('claim_single', data.epoch);
      const record: DevClaimRecord = {
        epoch: data.epoch,
        index: data.index,
        hotkey: toSs58(data.hotkey),
        recipientColdkey: toSs58(data.recipientColdkey),
        amount: data.amount.toString(),
        paidRao: paid.toString(),
        transfer,
        caller: toSs58(caller.address),
        block,
        txHash,
      };
      const outcome = await this.#eval(CLAIM, [this.#keys.latest, this.#keys.epoch(data.epoch), this.#keys.claimed, this.#keys.ledger], [
        String(data.epoch),
        hotkey,
        claimedBefore ?? '',
        data.amount.toString(),
        paid.toString(),
        JSON.stringify(record),
      ]);
      if (outcome === 'retry') continue;
      refuse(outcome, { epoch_not_claimable: `epoch ${data.epoch} was superseded`, claims_locked: EPOCH_REFUSALS.claims_locked(data.epoch) });
      const event: ClaimContractEvent = { name: 'Claimed', epoch: data.epoch, index: data.index, hotkey: record.hotkey, recipient: record.recipientColdkey, amountRao: paid };
      return { block, txHash, events: [event], paidRao: paid };
    }
    throw new ClaimContractError('contract_error', `claim of ${toSs58(data.hotkey)} lost ${MAX_CLAIM_ATTEMPTS} races in a row`);
  }

  async challengeEpoch(epoch: number, evidenceHash: HexHash, challenger: CallerAddress): Promise<ContractTxReceipt> {
    checkEpoch(epoch);
    const evidence = toHex(fromHexHash(evidenceHash, 'evidence_hash'));
    const block = await this.currentBlock();
    const txHash = await this.#txHash('challenge_epoch', epoch);
    const outcome = await this.#eval(CHALLENGE, [this.#keys.epoch(epoch), this.#keys.challenge(epoch)], [evidence, toSs58(challenger.address), String(block)]);
    refuse(outcome, { unknown_epoch: EPOCH_REFUSALS.unknown_epoch(epoch), already_disputed: EPOCH_REFUSALS.already_disputed(epoch) });
    return { block, txHash, events: [{ name: 'Challenged', epoch, evidenceHash: evidence, challenger: toSs58(challenger.address) }] };
  }

  async resolveChallenge(epoch: number, slash: boolean, beneficiary: string, arbiter: CallerAddress): Promise<ContractTxReceipt> {
    checkEpoch(epoch);
    const block = await this.currentBlock();
    const txHash = await this.#txHash('resolve_challenge', epoch);
    const outcome = await this.#eval(RESOLVE, [this.#keys.epoch(epoch), this.#keys.challenge(epoch)], [slash ? '1' : '0', toSs58(beneficiary), String(block)]);
    refuse(outcome, { unknown_epoch: EPOCH_REFUSALS.unknown_epoch(epoch), not_disputed: EPOCH_REFUSALS.not_disputed(epoch) });
    return { block, txHash, events: [{ name: 'ChallengeResolved', epoch, slashed: slash, resolver: toSs58(arbiter.address) }] };
  }

  /**
   * The contract's block: the dev chain's clock counted from the stack's shared block 0 (the
   * genesis the first process stored), so that processes started at different times agree on
   * `claims_open_at`.
   */
  async currentBlock(): Promise<number> {
    this.#sharedGenesis ??= (async () => {
      await this.redis.set(this.#genesisKey, String(this.chain.genesisMs), 'NX');
      return Number(await this.redis.get(this.#genesisKey));
    })().catch((error: unknown) => {
      this.#sharedGenesis = null;
      throw error;
    });
    return this.chain.blockSince(await this.#sharedGenesis);
  }

  /** The challenge of an epoch, if any (dev only: the real contract only emits events). */
  async challenge(epoch: number): Promise<DevChallenge | null> {
    const fields = await this.redis.hgetall(this.#keys.challenge(epoch));
    if (!fields.status) return null;
    return {
      epoch,
      evidenceHash: fields.evidence_hash as HexHash,
      challenger: fields.challenger,
      challengedAtBlock: Number(fields.block),
      status: fields.status as DevChallenge['status'],
      beneficiary: fields.beneficiary ?? null,
    };
  }

  /** Every paid claim, oldest first (dev only). */
  async claims(): Promise<DevClaimRecord[]> {
    return (await this.redis.lrange(this.#keys.ledger, 0, -1)).map((text) => JSON.parse(text) as DevClaimRecord);
  }

  async close(): Promise<void> {
    // The Redis client belongs to whoever built this contract (createChainAdapters closes its own).
  }

  async #eval(script: string, keys: string[], args: string[]): Promise<string> {
    return String(await this.redis.eval(script, keys.length, ...keys, ...args));
  }

  async #txHash(message: string, epoch: number): Promise<HexHash> {
    const n = await this.redis.incr(this.#keys.txCounter);
    const text = `${this.#keys.txCounter}:${n}:${message}:${epoch}`;
    return toHex(blake2b(Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff), { dkLen: 32 }));
  }
}

function refuse(outcome: string, messages: Partial<Record<ClaimContractErrorCode, string>>): void {
  if (outcome === 'ok') return;
  const code = (Object.keys(messages) as ClaimContractErrorCode[]).find((known) => known === outcome);
  throw new ClaimContractError(code ?? 'contract_error', code ? (messages[code] ?? code) : `dev contract answered ${outcome}`);
}

function epochOf(fields: Record<string, string>): ContractEpoch | null {
  if (!fields.root) return null;
  return {
    root: fields.root as HexHash,
    numOfLeaves: Number(fields.num_of_leaves),
    totalRao: BigInt(fields.total_rao),
    spentRao: BigInt(fields.spent_rao),
    disputed: fields.disputed !== '0',
    claimsOpenAt: Number(fields.claims_open_at),
    bondRao: BigInt(fields.bond_rao),
  };
}

function accountHex(address: string): string {
  return toHex(accountIdOf(address));
}

function fromHexHash(hash: string, what: string): Uint8Array {
  try {
    return fromHex(hash, 32);
  } catch {
    throw new ClaimContractError('contract_error', `${what} must be a 32-byte 0x hash, got ${JSON.stringify(hash)}`);
  }
}

function checkEpoch(epoch: number): void {
  if (!Number.isSafeInteger(epoch) || epoch < 0) throw new ClaimContractError('contract_error', `epoch must be a u64 integer, got ${epoch}`);
}

function checkU32(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > U32_MAX) throw new ClaimContractError('contract_error', `${what} must be a u32, got ${value}`);
}

function checkU64(value: bigint, what: string): void {
  if (value < 0n || value > U64_MAX) throw new ClaimContractError('contract_error', `${what} must be a u64, got ${value}`);
}
