import { readFileSync } from 'node:fs';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { MAX_ALGORITHM_DSL_BYTES, POOL_TASK_TYPE_PATTERN } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { DataSource } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { AlgorithmsRepository } from './algorithms.repository';

export interface SeedAlgorithm {
  task_type: string;
  algorithm_dsl: string;
  input_dim: number;
}

/** POOL_SEED_FILE is unreadable or not a JSON array of `{task_type, algorithm_dsl, input_dim}`. */
export class SeedFileError extends Error {
  constructor(file: string, problem: string) {
    super(`POOL_SEED_FILE ${file}: ${problem}`);
    this.name = 'SeedFileError';
  }
}

/** Parses and checks a seed file's text (DECISIONS.md §11). */
export function parseSeeds(file: string, text: string, defaultTaskType: string): SeedAlgorithm[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SeedFileError(file, `not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw new SeedFileError(file, 'must be a JSON array');
  return parsed.map((entry: unknown, index) => {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const taskType = e.task_type ?? defaultTaskType;
    const inputDim = e.input_dim ?? 16;
    const dsl = e.algorithm_dsl;
    if (typeof taskType !== 'string' || !POOL_TASK_TYPE_PATTERN.test(taskType)) throw new SeedFileError(file, `[${index}].task_type must match [a-z0-9_]{1,64}`);
    if (typeof dsl !== 'string' || dsl.trim() === '' || Buffer.byteLength(dsl) > MAX_ALGORITHM_DSL_BYTES || dsl.includes('\u0000')) {
      throw new SeedFileError(file, `[${index}].algorithm_dsl must be non-empty text of at most 64 KiB`);
    }
    if (typeof inputDim !== 'number' || !Number.isInteger(inputDim) || inputDim < 1 || inputDim > 1_000_000) {
      throw new SeedFileError(file, `[${index}].input_dim must be an integer 1..1000000`);
    }
    return { task_type: taskType, algorithm_dsl: dsl, input_dim: inputDim };
  });
}

/** Loads POOL_SEED_FILE at boot, idempotently: a seed whose normalised DSL exists is skipped. */
@Injectable()
export class SeedLoader implements OnApplicationBootstrap {
  private readonly logger = new Logger(SeedLoader.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly algorithms: AlgorithmsRepository,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const file = this.config.mining.seedFile;
    if (file === null) return;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new SeedFileError(file, (error as Error).message);
    }
    const inserted = await this.load(parseSeeds(file, text, this.config.mining.defaultTaskType));
    this.logger.log(`Seeds from ${file}: ${inserted} new`);
  }

  load(seeds: SeedAlgorithm[]): Promise<number> {
    return inTransaction(this.dataSource, async (manager) => {
      let inserted = 0;
      for (const seed of seeds) {
        const id = await this.algorithms.insert(manager, {
          taskType: seed.task_type,
          algorithmDsl: seed.algorithm_dsl,
          inputDim: seed.input_dim,
          parentIds: [],
          barParentIds: [],
          authorHotkey: null,
          authorOwner: null,
        });
        if (id !== null) inserted++;
      }
      return inserted;
    });
  }
}
