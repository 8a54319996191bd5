import type { Redis } from 'ioredis';
import { WeightsPassOutcome, type WeightsPassDto } from '@rcs/contracts';

export interface StoredStatus {
  last_pass: WeightsPassDto | null;
  next_allowed_block: number | null;
}

/**
 * The last pass and the pass counters of one hotkey, in Redis so that a standby (and the process that
 * takes over) shows what the owner did.
 */
export class PassStatusStore {
  readonly #statusKey: string;
  readonly #countersKey: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    hotkey: string,
  ) {
    this.#statusKey = `${prefix}:weights:status:${hotkey}`;
    this.#countersKey = `${prefix}:weights:passes:${hotkey}`;
  }

  async record(pass: WeightsPassDto, nextAllowedBlock: number | null): Promise<void> {
    const previous = await this.read();
    const status: StoredStatus = { last_pass: pass, next_allowed_block: nextAllowedBlock ?? previous.next_allowed_block };
    await this.redis.multi().set(this.#statusKey, JSON.stringify(status)).hincrby(this.#countersKey, pass.outcome, 1).exec();
  }

  async read(): Promise<StoredStatus> {
    const text = await this.redis.get(this.#statusKey);
    return text === null ? { last_pass: null, next_allowed_block: null } : (JSON.parse(text) as StoredStatus);
  }

  /** Passes per outcome since the counters began (every outcome listed, 0 when none). */
  async counters(): Promise<Record<WeightsPassOutcome, number>> {
    const stored = await this.redis.hgetall(this.#countersKey);
    return Object.fromEntries(Object.values(WeightsPassOutcome).map((outcome) => [outcome, Number(stored[outcome] ?? 0)])) as Record<WeightsPassOutcome, number>;
  }
}
