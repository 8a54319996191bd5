import { Inject, Injectable } from '@nestjs/common';
import { ChainUnavailableError, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';

// Blocks come every ~12 s: reading the chain at most once a second costs nothing in accuracy.
const BLOCK_CACHE_MS = 1000;
/** Subtensor's block time. */
const SUBTENSOR_BLOCK_MS = 12_000;

/** The chain's current block and the payout window it falls in (window = ⌊block / POOL_WINDOW_BLOCKS⌋). */
@Injectable()
export class PoolClock {
  private cached: { block: number; at: number } | null = null;

  constructor(
    @Inject(SUBTENSOR_PORT) private readonly subtensor: SubtensorPort,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  /** The current block; rejects with `ChainUnavailableError` when the chain cannot answer. */
  async currentBlock(): Promise<number> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < BLOCK_CACHE_MS) return this.cached.block;
    const block = await this.subtensor.latestBlock();
    this.cached = { block, at: now };
    return block;
  }

  windowOf(block: number): number {
    return Math.floor(block / this.config.windowBlocks);
  }

  /** Whole seconds until the window after the current one starts (at least 1), for `Retry-After`. */
  async secondsToNextWindow(): Promise<number> {
    const block = await this.currentBlock();
    const blocksLeft = this.config.windowBlocks - (block % this.config.windowBlocks);
    const blockMs = this.config.chain.chain === 'dev' ? this.config.chain.devBlockTimeMs : SUBTENSOR_BLOCK_MS;
    return Math.max(1, Math.ceil((blocksLeft * blockMs) / 1000));
  }

  /** The current window, or 503 `chain_unavailable` (routes that need it fail closed). */
  async currentWindow(): Promise<number> {
    try {
      return this.windowOf(await this.currentBlock());
    } catch (error) {
      if (error instanceof ChainUnavailableError) {
        throw ApiError.unavailable(ErrorCode.ChainUnavailable, 'The chain cannot be reached to read the current window; retry later.');
      }
      throw error;
    }
  }
}
