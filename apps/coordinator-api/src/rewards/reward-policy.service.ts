import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError, ApiValidationError, ErrorCode, UpdateRewardPolicyDto } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { DomainEvents } from '../events/domain-events';
import { RewardPolicyEntity } from './entities/reward-policy.entity';
import { defaultRewardPolicy, rewardPolicyBody, RewardPolicyDocument } from './reward-policy.defaults';
import { toRewardPolicyDocument } from './reward-policy.mapper';
import { RewardPolicyRepository } from './reward-policy.repository';

/** `reward_policies.version` is a Postgres integer; the DTO allows up to 2^53 - 1. */
const MAX_STORED_VERSION = 2_147_483_647;

/**
 * The reward policy document (DECISIONS §7): the newest stored version is in force, every version
 * is kept, and the history starts at version 1 = the spec's defaults, stored the first time the
 * policy is read or replaced (so GET shows version 1 before any PUT, and the first PUT needs version 2).
 */
@Injectable()
export class RewardPolicyService implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly policies: RewardPolicyRepository,
  ) {}

  /** The policy in force, every default filled in; reads through `manager` when given (e.g. inside the snapshot's transaction). */
  // Version 1 is stored at boot, so readers inside a (read-only) transaction never need a second connection:
  // a transaction waiting on another connection deadlocks the embedded single-connection Postgres.
  async onApplicationBootstrap(): Promise<void> {
    await this.policies.ensureInitial(this.dataSource.manager, defaultRewardPolicy());
  }

  async current(manager: EntityManager = this.dataSource.manager): Promise<RewardPolicyDocument> {
    // Stored at boot; the fallback only runs before bootstrap and stays on the caller's connection.
    const stored = (await this.policies.findLatest(manager)) ?? (await this.policies.ensureInitial(manager, defaultRewardPolicy()));
    return toRewardPolicyDocument(stored);
  }

  /**
   * Stores `body` (absent parts took their defaults in the DTO) as a new version, which must be
   * above the stored one: lower or equal is 409 `stale_policy_version`. Concurrent PUTs are
   * serialised, so of several PUTs of one new version exactly one wins. Then announces `policy.changed` (the rewards module rebuilds the snapshot).
   */
  async replace(body: UpdateRewardPolicyDto): Promise<RewardPolicyDocument> {
    if (body.version > MAX_STORED_VERSION) {
      throw new ApiValidationError([
        {
          type: 'less_than_equal',
          loc: ['body', 'version'],
          msg: `Input should be less than or equal to ${MAX_STORED_VERSION}`,
          input: body.version,
          ctx: { le: MAX_STORED_VERSION },
        },
      ]);
    }
    const policy = rewardPolicyBody(body);
    const stored = await inTransaction(this.dataSource, async (manager): Promise<RewardPolicyEntity> => {
      await this.policies.lockWriters(manager);
      const current = await this.policies.ensureInitial(manager, defaultRewardPolicy());
      if (policy.version <= current.version) {
        throw ApiError.conflict(
          ErrorCode.StalePolicyVersion,
          `Reward policy version ${policy.version} is not above the stored version ${current.version}.`,
          { version: policy.version, current_version: current.version },
        );
      }
      return this.policies.insert(manager, policy);
    });
    this.events.emit('policy.changed', { version: stored.version });
    return toRewardPolicyDocument(stored);
  }

  /** Every stored version (at least version 1), newest first. */
  async versions(): Promise<Pick<RewardPolicyEntity, 'version' | 'createdAt'>[]> {
    await this.policies.ensureInitial(this.dataSource.manager, defaultRewardPolicy());
    return this.policies.listVersions(this.dataSource.manager);
  }
}
