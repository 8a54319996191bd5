import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { type ReputationAward, ReputationRepository } from '../reputation/reputation.module';
import { ResultsRepository } from '../results/results.module';
import { AlgorithmsRepository, MinerIdentity } from './algorithms.repository';
import { ConsensusRules, decideConsensus, withinTolerance } from './consensus';
import { AlgorithmEntity } from './entities/algorithm.entity';

export interface SubmittedScore {
  algorithmId: number;
  score: number;
}

/**
 * Records evaluations and decides algorithms (DECISIONS.md §11): each algorithm row is locked while its
 * evaluation is recorded and its consensus decided, so concurrent evaluations never score it twice; the
 * reputation awards, the evolution bonus and a result beating the threshold are written in the same transaction.
 */
@Injectable()
export class ConsensusService {
  private readonly rules: ConsensusRules;

  constructor(
    private readonly algorithms: AlgorithmsRepository,
    private readonly reputation: ReputationRepository,
    private readonly results: ResultsRepository,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {
    const m = config.mining;
    this.rules = { k: m.consensusK, toleranceRatio: m.toleranceRatio, toleranceAbs: m.toleranceAbs, maxEvaluations: m.maxEvaluations };
  }

  /**
   * Records `scores` of one assignment inside the caller's transaction; returns how many were recorded. Consensus
   * counts evaluators of distinct owners only, none the author's (DECISIONS.md §11 Sybil resistance).
   */
  async record(manager: EntityManager, miner: MinerIdentity, assignmentId: string, scores: SubmittedScore[]): Promise<number> {
    const minerHotkey = miner.hotkey;
    // Locked in id order for the rest of the transaction: each algorithm's decision is serialised here.
    const locked = await this.algorithms.lockMany(
      manager,
      scores.map((s) => s.algorithmId),
    );
    const byId = new Map(locked.map((a) => [a.id, a]));
    const rows = scores.flatMap(({ algorithmId, score }) => {
      const algorithm = byId.get(algorithmId);
      // Batches never hold an algorithm of the miner's owner; refusing it here too keeps that true whatever the caller.
      if (algorithm === undefined || algorithm.authorHotkey === minerHotkey || algorithm.authorOwner === miner.owner) return [];
      // An evaluation of an algorithm already decided is judged against its consensus score at once.
      const inConsensus = algorithm.status === 'pending' ? null : algorithm.status === 'scored' && withinTolerance(score, algorithm.consensusScore ?? NaN, this.rules);
      return [{ algorithmId, score, inConsensus }];
    });
    const recorded = await this.algorithms.insertEvaluations(manager, miner, assignmentId, rows);
    if (recorded.length === 0) return 0;
    const counts = await this.algorithms.bumpEvaluationCounts(manager, recorded);
    const late = rows.filter((r) => r.inConsensus !== null && recorded.includes(r.algorithmId));
    await this.reputation.award(
      manager,
      late.map((r) => evaluationAward(minerHotkey, r.algorithmId, r.inConsensus === true)),
    );
    for (const id of [...recorded].sort((a, b) => a - b)) {
      const algorithm = byId.get(id);
      if (algorithm?.status === 'pending' && (counts.get(id) ?? 0) >= this.rules.k) await this.decide(manager, algorithm);
    }
    return recorded.length;
  }

  private async decide(manager: EntityManager, algorithm: AlgorithmEntity): Promise<void> {
    const evaluations = await this.algorithms.evaluationsOf(manager, algorithm.id);
    const outcome = decideConsensus(
      evaluations.map((e) => ({ id: e.id, score: e.score })),
      this.rules,
    );
    switch (outcome.kind) {
      case 'pending':
        return;
      case 'rejected':
        await this.algorithms.markRejected(manager, algorithm.id);
        await this.algorithms.settleEvaluations(manager, algorithm.id, []);
        await this.reputation.award(
          manager,
          evaluations.map((e) => evaluationAward(e.minerHotkey, algorithm.id, false)),
        );
        return;
      case 'scored': {
        await this.algorithms.markScored(manager, algorithm.id, outcome.score);
        await this.algorithms.settleEvaluations(manager, algorithm.id, [...outcome.inConsensus]);
        const awards = evaluations.map((e) => evaluationAward(e.minerHotkey, algorithm.id, outcome.inConsensus.has(e.id)));
        if (algorithm.authorHotkey !== null && (await this.improvesOnParents(manager, algorithm, outcome.score))) {
          awards.push({ minerHotkey: algorithm.authorHotkey, kind: 'evolution_improved', algorithmId: algorithm.id });
        }
        await this.reputation.award(manager, awards);
        await this.recordResultIfAboveSota(manager, algorithm, outcome.score, evaluations.length);
        return;
      }
    }
  }

  /**
   * The bar is the best score among the parents its assignment offered and those the author named, so naming
   * weak (or invented) parents cannot lower it. Parents without a score set no bar: an evolution of unscored
   * seeds improves on them once scored.
   */
  private async improvesOnParents(manager: EntityManager, algorithm: AlgorithmEntity, score: number): Promise<boolean> {
    const best = await this.algorithms.bestScoreOf(manager, algorithm.barParentIds);
    return best === null || score > best;
  }

  private async recordResultIfAboveSota(manager: EntityManager, algorithm: AlgorithmEntity, score: number, evaluations: number): Promise<void> {
    const sota = await this.results.findSota(manager, algorithm.taskType);
    const threshold = sota?.threshold ?? this.config.mining.sotaInitial;
    if (!(score > threshold)) return;
    await this.results.insertPending(manager, {
      algorithmId: algorithm.id,
      taskType: algorithm.taskType,
      minerHotkey: algorithm.authorHotkey,
      score,
      evaluations,
    });
  }
}

function evaluationAward(minerHotkey: string, algorithmId: number, inConsensus: boolean): ReputationAward {
  return { minerHotkey, algorithmId, kind: inConsensus ? 'evaluation_in_consensus' : 'evaluation_out_of_consensus' };
}
