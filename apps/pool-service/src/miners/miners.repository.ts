import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { MinerEntity } from './entities/miner.entity';
import { RecipientChangeEntity, type RecipientChangeKind } from './entities/recipient-change.entity';

/** What a recipient change carries besides its kind: the miner, the coldkey and the signed record. */
export interface SignedColdkey {
  hotkey: string;
  coldkey: string;
  signedColdkey: string;
  signedTimestamp: string;
  signature: string;
  route: string;
}

export interface RecipientChange extends SignedColdkey {
  kind: RecipientChangeKind;
}

/** Miners, their recipients and the history of recipient changes (reads across domains: `MinerStatsReadModel`). */
@Injectable()
export class MinersRepository {
  /** Every recipient change of a hotkey, oldest first. */
  history(manager: EntityManager, hotkey: string): Promise<RecipientChangeEntity[]> {
    return manager.find(RecipientChangeEntity, { where: { hotkey }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Creates the miner or refreshes `last_seen_at`, in one statement. */
  async touch(manager: EntityManager, hotkey: string): Promise<MinerEntity> {
    await manager.query(
      `INSERT INTO miners (hotkey) VALUES ($1) ON CONFLICT (hotkey) DO UPDATE SET last_seen_at = now()`,
      [hotkey],
    );
    return manager.findOneByOrFail(MinerEntity, { hotkey });
  }

  /** `touch` without reading the row back (hot paths). */
  async touchQuietly(manager: EntityManager, hotkey: string): Promise<void> {
    await manager.query(`INSERT INTO miners (hotkey) VALUES ($1) ON CONFLICT (hotkey) DO UPDATE SET last_seen_at = now()`, [hotkey]);
  }

  find(manager: EntityManager, hotkey: string): Promise<MinerEntity | null> {
    return manager.findOneBy(MinerEntity, { hotkey });
  }

  /** Stores the recipient (or the root declaration) and its history row, creating the miner if needed. */
  async recordColdkey(manager: EntityManager, change: RecipientChange): Promise<MinerEntity> {
    const [column, at] = change.kind === 'recipient' ? ['recipient_coldkey', 'recipient_updated_at'] : ['declared_coldkey', 'declared_at'];
    await manager.query(
      `INSERT INTO miners (hotkey, ${column}, ${at}) VALUES ($1, $2, now())
       ON CONFLICT (hotkey) DO UPDATE SET ${column} = EXCLUDED.${column}, ${at} = now(), last_seen_at = now()`,
      [change.hotkey, change.coldkey],
    );
    await manager.insert(RecipientChangeEntity, change);
    return manager.findOneByOrFail(MinerEntity, { hotkey: change.hotkey });
  }
}
