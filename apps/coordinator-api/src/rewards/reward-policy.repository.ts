import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RewardPolicyEntity } from './entities/reward-policy.entity';
import { INITIAL_POLICY_VERSION, RewardPolicyBody } from './reward-policy.defaults';

/** The reward_policies table, always through the caller's manager (the snapshot reads the policy inside its own transaction). */
@Injectable()
export class RewardPolicyRepository {
  /** The newest stored version, or null while nothing is stored. */
  findLatest(manager: EntityManager): Promise<RewardPolicyEntity | null> {
    return manager.findOne(RewardPolicyEntity, { where: {}, order: { version: 'DESC' } });
  }

  /** Every stored version, newest first (the document is not loaded). */
  listVersions(manager: EntityManager): Promise<Pick<RewardPolicyEntity, 'version' | 'createdAt'>[]> {
    return manager.find(RewardPolicyEntity, { select: { version: true, createdAt: true }, order: { version: 'DESC' } });
  }

  /**
   * Stores the defaults as version 1 when nothing is stored (a no-op otherwise, also when another
   * transaction stores it at the same time), then answers the newest stored version.
   */
  async ensureInitial(manager: EntityManager, defaults: RewardPolicyBody): Promise<RewardPolicyEntity> {
    await manager.query(
      `INSERT INTO reward_policies (version, document, created_at)
       SELECT $1, $2::jsonb, clock_timestamp()
       WHERE NOT EXISTS (SELECT 1 FROM reward_policies)
       ON CONFLICT (version) DO NOTHING`,
      [INITIAL_POLICY_VERSION, JSON.stringify(defaults)],
    );
    return manager.findOneOrFail(RewardPolicyEntity, { where: {}, order: { version: 'DESC' } });
  }

  /**
   * Serialises policy writers until the transaction ends (plain reads go on): the version check and
   * the insert of a PUT then see every earlier PUT, so a lower version can never land after a higher one.
   */
  async lockWriters(manager: EntityManager): Promise<void> {
    await manager.query('LOCK TABLE reward_policies IN EXCLUSIVE MODE');
  }

  /** Inserts a version; the primary key refuses a version that is already stored. */
  async insert(manager: EntityManager, body: RewardPolicyBody): Promise<RewardPolicyEntity> {
    // clock_timestamp(), not now(): taken after the writer lock, so stored times follow the version order.
    await manager.insert(RewardPolicyEntity, {
      version: body.version,
      document: body,
      createdAt: () => 'clock_timestamp()',
    });
    return manager.findOneByOrFail(RewardPolicyEntity, { version: body.version });
  }
}
