import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '@rcs/persistence';
import { RewardPolicyBody } from './reward-policy.defaults';
import { ScoredCompetition, scoreTask, serializeRewardSnapshot } from './reward-snapshot.document';
import { RewardSnapshotRepository, TaskWithBest } from './reward-snapshot.repository';
import { AcceptedResults, IdeaCredit, ScoreClock } from './scoring';

/** The policy in force, read inside the snapshot's transaction. */
export type PolicyReader = (manager: EntityManager) => Promise<RewardPolicyBody>;

export interface RewardSnapshotBuildOptions {
  scoreEmaDays: number;
  /** Score as of this time instead of the database clock (rebuilding a past snapshot, tests). */
  at?: Date;
  /** Accepted results per cursor fetch. */
  batchSize?: number;
}

export interface BuiltRewardSnapshot {
  generatedAt: Date;
  /** The snapshot JSON, byte for byte what the route serves. */
  body: string;
  /** The recorded changes (`reward_snapshot_changes`) this build's read includes. */
  changes: string[];
}

const DEFAULT_BATCH_SIZE = 10_000;

/**
 * Builds the snapshot from one consistent view of the data (a REPEATABLE READ, read-only
 * transaction). Accepted results stream through a cursor and are scored one task at a time, so
 * memory holds the largest task's results as three columns, never every submission at once.
 * T is the database clock (the clock `decided_at` and every other event time were stamped with),
 * read by the transaction's first query (which takes its snapshot): every result it sees was decided before T.
 */
export async function buildRewardSnapshot(
  dataSource: DataSource,
  snapshots: RewardSnapshotRepository,
  readPolicy: PolicyReader,
  options: RewardSnapshotBuildOptions,
): Promise<BuiltRewardSnapshot> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const read = await inTransaction(
    dataSource,
    async (manager) => {
      await snapshots.readOnly(manager);
      const clock: ScoreClock = { generatedAt: options.at?.getTime() ?? (await snapshots.readClockMs(manager)), scoreEmaDays: options.scoreEmaDays };
      // In the same view as the data: a change is cleared only by a build that read it.
      const changes = await snapshots.readSnapshotChanges(manager);
      const policyDocument = await readPolicy(manager);
      const tasks = new Map((await snapshots.readTasksWithBest(manager)).map((entry) => [entry.task.id, entry]));
      const ideas = await snapshots.readIdeaCredits(manager);
      const scored: ScoredCompetition[] = [];
      const score = (entry: TaskWithBest, accepted: AcceptedResults): void => {
        scored.push(scoreTask(policyDocument, { ...entry, accepted, ideaRewards: ideas.get(entry.task.id) ?? NO_IDEAS }, clock));
        tasks.delete(entry.task.id);
      };

      // One hotkey string per miner, however many results it has.
      const hotkeys = new Map<string, string>();
      let entry: TaskWithBest | null = null;
      let columns = new Columns();
      for await (const batch of snapshots.streamAcceptedResults(manager, batchSize)) {
        for (const row of batch) {
          if (entry?.task.id !== row.task_id) {
            if (entry) score(entry, columns);
            entry = tasks.get(row.task_id) as TaskWithBest;
            columns = new Columns();
          }
          let hotkey = hotkeys.get(row.miner_hotkey);
          if (hotkey === undefined) hotkeys.set(row.miner_hotkey, (hotkey = row.miner_hotkey));
          columns.push(hotkey, row.metric, row.decided_at);
        }
      }
      if (entry) score(entry, columns);
      for (const entry of [...tasks.values()]) score(entry, new Columns());
      return { clock, policyDocument, competitions: scored, changes };
    },
    'REPEATABLE READ',
  );
  return { generatedAt: new Date(read.clock.generatedAt), body: serializeRewardSnapshot(read), changes: read.changes };
}

const NO_IDEAS: readonly IdeaCredit[] = [];

/** One task's accepted results as growable columns (V8 keeps the numbers unboxed). */
class Columns implements AcceptedResults {
  length = 0;
  readonly minerHotkeys: string[] = [];
  readonly metrics: number[] = [];
  readonly decidedAt: number[] = [];

  push(hotkey: string, metric: number, decidedAt: number): void {
    this.minerHotkeys.push(hotkey);
    this.metrics.push(metric);
    this.decidedAt.push(decidedAt);
    this.length += 1;
  }
}
