import type { Redis } from 'ioredis';
import { WeightsPassOutcome, WeightsRevealOutcome, type WeightsPassDto, type WeightsPassEntryDto, type WeightsRevealDto } from '@rcs/contracts';

export interface StoredStatus {
  last_pass: WeightsPassDto | null;
  next_allowed_block: number | null;
  last_reveal: WeightsRevealDto | null;
}

/** A commit that landed and whose reveal is not confirmed yet (kept across restarts and owners). */
export interface PendingCommit {
  interval: number;
  netuid: number;
  uid: number;
  reveal_round: number;
  reveal_block: number;
  /** The last block of the reveal epoch: still unrevealed after it, the commit is `reveal_missed`. */
  reveal_deadline_block: number;
  ciphertext: string;
  tx_hash: string;
  block: number;
  weights: WeightsPassEntryDto[];
}

/** What `weights_commits_total{outcome}` counts. */
export const COMMIT_OUTCOMES = ['committed', ...Object.values(WeightsRevealOutcome)] as const;
export type CommitOutcome = (typeof COMMIT_OUTCOMES)[number];

/**
 * The last pass, the pending commit, the last reveal and the counters of one hotkey, in Redis so that
 * a standby (and the process that takes over, or a restarted one) shows and confirms what the owner did.
 */
export class PassStatusStore {
  readonly #statusKey: string;
  readonly #countersKey: string;
  readonly #pendingKey: string;
  readonly #revealKey: string;
  readonly #commitCountersKey: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    hotkey: string,
  ) {
    // One hash tag per hotkey: the transactions and the settle script touch several of these keys at once.
    const base = `{${prefix}:weights:${hotkey}}`;
    this.#statusKey = `${base}:status`;
    this.#countersKey = `${base}:passes`;
    this.#pendingKey = `${base}:pending-commit`;
    this.#revealKey = `${base}:last-reveal`;
    this.#commitCountersKey = `${base}:commits`;
  }

  async record(pass: WeightsPassDto, nextAllowedBlock: number | null): Promise<void> {
    const previous = await this.#readStatus();
    const status = { last_pass: pass, next_allowed_block: nextAllowedBlock ?? previous.next_allowed_block };
    await this.redis.multi().set(this.#statusKey, JSON.stringify(status)).hincrby(this.#countersKey, pass.outcome, 1).exec();
  }

  async read(): Promise<StoredStatus> {
    const [status, reveal] = await Promise.all([this.#readStatus(), this.redis.get(this.#revealKey)]);
    return { ...status, last_reveal: reveal === null ? null : (JSON.parse(reveal) as WeightsRevealDto) };
  }

  /** Remembers a commit that landed, before the pass reports it. */
  async commitLanded(pending: PendingCommit): Promise<void> {
    await this.redis.multi().set(this.#pendingKey, JSON.stringify(pending)).hincrby(this.#commitCountersKey, 'committed', 1).exec();
  }

  async pendingCommit(): Promise<PendingCommit | null> {
    const text = await this.redis.get(this.#pendingKey);
    return text === null ? null : (JSON.parse(text) as PendingCommit);
  }

  /**
   * Settles the pending commit: the reveal becomes `last_reveal` and is counted. Only when the pending
   * commit is still the one given (compare-and-delete), so two confirmations count one reveal.
   */
  async settle(pending: PendingCommit, reveal: WeightsRevealDto): Promise<boolean> {
    const settled = await this.redis.eval(
      `if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
       redis.call('del', KEYS[1])
       redis.call('set', KEYS[2], ARGV[2])
       redis.call('hincrby', KEYS[3], ARGV[3], 1)
       return 1`,
      3,
      this.#pendingKey,
      this.#revealKey,
      this.#commitCountersKey,
      JSON.stringify(pending),
      JSON.stringify(reveal),
      reveal.outcome,
    );
    return settled === 1;
  }

  /** Passes per outcome since the counters began (every outcome listed, 0 when none). */
  async counters(): Promise<Record<WeightsPassOutcome, number>> {
    return this.#counts(this.#countersKey, Object.values(WeightsPassOutcome));
  }

  /** Commits that landed, and reveals by outcome. */
  async commitCounters(): Promise<Record<CommitOutcome, number>> {
    return this.#counts(this.#commitCountersKey, COMMIT_OUTCOMES);
  }

  async #counts<K extends string>(key: string, names: readonly K[]): Promise<Record<K, number>> {
    const stored = await this.redis.hgetall(key);
    return Object.fromEntries(names.map((name) => [name, Number(stored[name] ?? 0)])) as Record<K, number>;
  }

  async #readStatus(): Promise<Omit<StoredStatus, 'last_reveal'>> {
    const text = await this.redis.get(this.#statusKey);
    return text === null ? { last_pass: null, next_allowed_block: null } : (JSON.parse(text) as Omit<StoredStatus, 'last_reveal'>);
  }
}
