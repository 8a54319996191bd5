import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EpochVerdictEntity, type VerdictResult } from './epoch-verdict.entity';

export interface FinalVerdict {
  epoch: number;
  result: 'verified' | 'mismatch';
  check: string | null;
  detail: string | null;
  allocationSha256: string | null;
  snapshotSha256: string | null;
  cumulative: Record<string, string> | null;
  carriedOver: string | null;
  evidence: string | null;
  evidenceHash: string | null;
}

/** The verdicts, always through the caller's manager. A final verdict is written once and never changed but for its challenge. */
@Injectable()
export class VerdictsRepository {
  find(manager: EntityManager, epoch: number): Promise<EpochVerdictEntity | null> {
    return manager.findOneBy(EpochVerdictEntity, { epoch });
  }

  /** The newest epoch judged `verified` or `mismatch` below `epoch`. */
  async previousFinal(manager: EntityManager, epoch: number): Promise<EpochVerdictEntity | null> {
    return manager
      .createQueryBuilder(EpochVerdictEntity, 'v')
      .where('v.epoch < :epoch', { epoch })
      .andWhere(`v.result IN ('verified', 'mismatch')`)
      .orderBy('v.epoch', 'DESC')
      .limit(1)
      .getOne();
  }

  /** The oldest epoch with a verdict of any kind: where a `latest` bootstrap started. */
  async oldest(manager: EntityManager): Promise<number | null> {
    const rows = (await manager.query(`SELECT min(epoch) AS epoch FROM epoch_verdicts`)) as { epoch: number | null }[];
    return rows[0]?.epoch ?? null;
  }

  /**
   * Records a final verdict unless one is there already (false then): a mismatch with its evidence
   * and its challenge `pending`, in one statement.
   */
  async recordFinal(manager: EntityManager, verdict: FinalVerdict): Promise<boolean> {
    const rows = (await manager.query(
      `INSERT INTO epoch_verdicts (epoch, result, "check", detail, allocation_sha256, snapshot_sha256, cumulative, carried_over, evidence, evidence_hash, challenge, judged_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now())
       ON CONFLICT (epoch) DO UPDATE SET result = EXCLUDED.result, "check" = EXCLUDED."check", detail = EXCLUDED.detail,
         allocation_sha256 = EXCLUDED.allocation_sha256, snapshot_sha256 = EXCLUDED.snapshot_sha256, cumulative = EXCLUDED.cumulative,
         carried_over = EXCLUDED.carried_over, evidence = EXCLUDED.evidence, evidence_hash = EXCLUDED.evidence_hash,
         challenge = EXCLUDED.challenge, judged_at = now(), updated_at = now()
       WHERE epoch_verdicts.result = 'unverified'
       RETURNING epoch`,
      [
        verdict.epoch,
        verdict.result,
        verdict.check,
        verdict.detail,
        verdict.allocationSha256,
        verdict.snapshotSha256,
        verdict.cumulative === null ? null : JSON.stringify(verdict.cumulative),
        verdict.carriedOver,
        verdict.evidence,
        verdict.evidenceHash,
        verdict.result === 'mismatch' ? 'pending' : 'none',
      ],
    )) as unknown[];
    return rows.length === 1;
  }

  /** An attempt that could not read an input: `unverified`, counted, never over a final verdict. */
  async recordUnverified(manager: EntityManager, epoch: number, input: string, detail: string): Promise<void> {
    await manager.query(
      `INSERT INTO epoch_verdicts (epoch, result, "check", detail, unverified_attempts) VALUES ($1, 'unverified', $2, $3, 1)
       ON CONFLICT (epoch) DO UPDATE SET "check" = EXCLUDED."check", detail = EXCLUDED.detail,
         unverified_attempts = epoch_verdicts.unverified_attempts + 1, judged_at = now(), updated_at = now()
       WHERE epoch_verdicts.result = 'unverified'`,
      [epoch, input, detail.slice(0, 2000)],
    );
  }

  /** Mismatches whose challenge is not yet included, oldest first. */
  pendingChallenges(manager: EntityManager): Promise<EpochVerdictEntity[]> {
    return manager.find(EpochVerdictEntity, { where: { challenge: 'pending' }, order: { epoch: 'ASC' } });
  }

  async markChallengeIncluded(manager: EntityManager, epoch: number, at: { block: number | null; txHash: string | null }): Promise<boolean> {
    const result = await manager.update(EpochVerdictEntity, { epoch, challenge: 'pending' }, { challenge: 'included', challengeBlock: at.block, challengeTx: at.txHash, challengeError: null });
    return (result.affected ?? 0) > 0;
  }

  async recordChallengeFailure(manager: EntityManager, epoch: number, error: string): Promise<void> {
    await manager.query(`UPDATE epoch_verdicts SET challenge_error = $2, updated_at = now() WHERE epoch = $1 AND challenge = 'pending'`, [epoch, error.slice(0, 2000)]);
  }

  /** Verdicts per result, challenges included, and unverified attempts: what `/status` and the metrics say. */
  async counts(manager: EntityManager): Promise<{ verified: number; mismatch: number; unverified: number; unverifiedAttempts: number; challenges: number }> {
    const [row] = (await manager.query(
      `SELECT count(*) FILTER (WHERE result = 'verified')::int AS verified, count(*) FILTER (WHERE result = 'mismatch')::int AS mismatch,
              count(*) FILTER (WHERE result = 'unverified')::int AS unverified, coalesce(sum(unverified_attempts), 0)::int AS "unverifiedAttempts",
              count(*) FILTER (WHERE challenge = 'included')::int AS challenges
       FROM epoch_verdicts`,
    )) as { verified: number; mismatch: number; unverified: number; unverifiedAttempts: number; challenges: number }[];
    return row;
  }

  recent(manager: EntityManager, limit: number): Promise<EpochVerdictEntity[]> {
    return manager.find(EpochVerdictEntity, { order: { epoch: 'DESC' }, take: limit });
  }
}

export type { VerdictResult };
