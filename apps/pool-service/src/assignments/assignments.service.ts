import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiError, ApiValidationError, BatchKind, ErrorCode, EvaluationSubmissionDto, EvolutionSubmissionDto, LeaseRequestDto, LeaseSubmissionDto, parentIdOf, type ValidationErrorItem, orRefused, type Refusable } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { DataSource, EntityManager } from 'typeorm';
import { AlgorithmsRepository } from '../algorithms/algorithms.module';
import { ConsensusService, SubmittedScore } from '../algorithms/consensus.service';
import { AlgorithmEntity } from '../algorithms/entities/algorithm.entity';
import { PoolClock } from '../common/pool-clock';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { MinerOwners } from '../miners/miner-owners';
import { MinersRepository } from '../miners/miners.module';
import { AssignmentsRepository } from './assignments.repository';
import { AssignmentEntity, AssignmentKind } from './entities/assignment.entity';

/** Compat texts the BitSota clients match on (DECISIONS.md §11): keep them exactly. */
export const ACTIVE_TASK_MESSAGE = 'Miner already has active task';
export const LEASE_WINDOW_MESSAGE = 'Lease already issued for this window. Wait for next window.';
export const LEASE_NOT_FOUND_MESSAGE = 'Active lease assignment not found';

export interface IssuedBatch {
  assignment: AssignmentEntity;
  algorithms: AlgorithmEntity[];
}

export interface IssuedLease {
  assignment: AssignmentEntity;
  evaluate: AlgorithmEntity[];
  seeds: AlgorithmEntity[];
  gossipIds: number[];
}

export interface LeaseOutcome {
  recordedEvaluations: number;
  createdAlgorithmIds: number[];
  /** Evolutions that already existed (by canonical DSL): the existing ids, never created, never rewarded. */
  duplicateAlgorithmIds: number[];
}

/** What an evolution became: a new algorithm, or the id of the one it duplicates. */
export interface EvolutionOutcome {
  status: 'accepted' | 'duplicate';
  algorithmId: number;
}

/** Who asks: the signer and the owner coldkey it is grouped under (DECISIONS.md §11 Sybil resistance). */
interface Miner {
  hotkey: string;
  owner: string;
}

const DEFAULT_GOSSIP_LIMIT = 10;
const MAX_GOSSIP_LIMIT = 50;

/** Batches and leases: issue, submit, expire (DECISIONS.md §11). Every state change is one transaction. */
@Injectable()
export class AssignmentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly assignments: AssignmentsRepository,
    private readonly algorithms: AlgorithmsRepository,
    private readonly miners: MinersRepository,
    private readonly consensus: ConsensusService,
    private readonly owners: MinerOwners,
    private readonly clock: PoolClock,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  /** `POST /api/v1/tasks/request`: an evaluate or evolve batch. */
  async requestBatch(hotkey: string, kind: BatchKind): Promise<IssuedBatch> {
    const mining = this.config.mining;
    const miner = await this.miner(hotkey);
    const windowNumber = await this.clock.currentWindow();
    return inTransaction(this.dataSource, async (manager) => {
      const blockers = await this.assignments.prepareMiner(manager, hotkey, null);
      if (blockers.active !== null) throw activeTask(blockers.active);
      await this.assertWindowBudget(manager, miner, windowNumber);
      const algorithms =
        kind === 'evaluate'
          ? await this.algorithms.evaluableBy(manager, miner, mining.defaultTaskType, mining.evalBatchSize)
          : await this.algorithms.parentsFor(manager, miner.owner, mining.defaultTaskType, mining.evolveParents);
      if (algorithms.length === 0) throw noTasks(kind === 'evaluate' ? 'No algorithms are waiting for evaluation.' : 'No algorithms to evolve yet.');
      const assignment = await this.insert(manager, miner, {
        kind,
        taskType: mining.defaultTaskType,
        algorithmIds: algorithms.map((a) => a.id),
        seedIds: [],
        windowNumber,
        evolveBudget: kind === 'evolve' ? 1 : 0,
      });
      return { assignment, algorithms };
    });
  }

  /** `POST /api/v1/tasks/lease`: one lease per miner per window. */
  async lease(hotkey: string, request: LeaseRequestDto): Promise<IssuedLease> {
    const mining = this.config.mining;
    if (request.sim_window_number !== undefined && !mining.devWindows) {
      throw new ApiValidationError([
        { type: 'dev_windows_disabled', loc: ['body', 'sim_window_number'], msg: 'sim_window_number is accepted only with POOL_DEV_WINDOWS=true', input: request.sim_window_number },
      ]);
    }
    const miner = await this.miner(hotkey);
    const windowNumber = request.sim_window_number ?? (await this.clock.currentWindow());
    const taskType = request.task_type ?? mining.defaultTaskType;
    return inTransaction(this.dataSource, async (manager) => {
      const blockers = await this.assignments.prepareMiner(manager, hotkey, windowNumber);
      if (blockers.leaseInWindow) throw leaseWindowTaken(windowNumber);
      if (blockers.active !== null) throw activeTask(blockers.active);
      await this.assertWindowBudget(manager, miner, windowNumber);
      const evaluate = await this.algorithms.evaluableBy(manager, miner, taskType, request.eval_batch_size ?? mining.evalBatchSize);
      const seedLimit = request.seed_batch_size ?? mining.evolveParents;
      const gossipLimit = Math.min(MAX_GOSSIP_LIMIT, Math.max(0, request.gossip_limit ?? DEFAULT_GOSSIP_LIMIT));
      // One read of the best scored algorithms (none of the miner's owner) serves both the parents and the gossip.
      const best = await this.algorithms.bestScored(manager, miner.owner, taskType, Math.max(seedLimit, gossipLimit));
      const seeds = best.length > 0 ? best.slice(0, seedLimit) : await this.algorithms.parentsFor(manager, miner.owner, taskType, seedLimit);
      const evolveBudget = seeds.length > 0 ? mining.leaseEvolveBudget : 0;
      if (evaluate.length === 0 && evolveBudget === 0) throw noTasks(`Nothing to evaluate or evolve for ${taskType}.`);
      const gossip = best.slice(0, gossipLimit);
      const assignment = await this.insert(manager, miner, {
        kind: 'lease',
        taskType,
        algorithmIds: evaluate.map((a) => a.id),
        seedIds: seeds.map((a) => a.id),
        windowNumber,
        evolveBudget,
      });
      return { assignment, evaluate, seeds, gossipIds: gossip.map((a) => a.id) };
    });
  }

  /** `POST /api/v1/tasks/{batch_id}/submit_evaluation`. */
  async submitEvaluation(hotkey: string, batchId: string, body: EvaluationSubmissionDto): Promise<number> {
    const miner = await this.miner(hotkey);
    return this.settle(async (manager) => {
      const assignment = await this.lockBatch(manager, hotkey, batchId, 'evaluate');
      if ('refusal' in assignment) return assignment;
      const scores = this.checkScores(assignment.value, body.evaluations, ['body', 'evaluations']);
      const recorded = await this.consensus.record(manager, miner, assignment.value.id, scores);
      await this.assignments.close(manager, assignment.value.id, 'submitted');
      return { value: recorded };
    });
  }

  /** `POST /api/v1/tasks/{batch_id}/submit_evolution`. */
  async submitEvolution(hotkey: string, batchId: string, body: EvolutionSubmissionDto): Promise<EvolutionOutcome> {
    const miner = await this.miner(hotkey);
    return this.settle(async (manager) => {
      const assignment = await this.lockBatch(manager, hotkey, batchId, 'evolve');
      if ('refusal' in assignment) return assignment;
      const offered = assignment.value.algorithmIds;
      const given = body.parent_functions.map(parentIdOf).filter((id): id is number => id !== null);
      const parents = checkParents(offered, given, ['body', 'parent_functions']);
      const outcome = await this.createEvolution(manager, miner, assignment.value.taskType, { named: parents, offered }, body.evolved_function);
      // Done either way: a duplicate never strands the miner with an active batch (DECISIONS.md §11).
      await this.assignments.close(manager, assignment.value.id, 'submitted');
      return { value: outcome };
    });
  }

  /** `POST /api/v1/tasks/{lease_id}/submit_lease`. */
  async submitLease(hotkey: string, leaseId: string, body: LeaseSubmissionDto): Promise<LeaseOutcome> {
    const miner = await this.miner(hotkey);
    return this.settle(async (manager): Promise<Refusable<LeaseOutcome>> => {
      const locked = await this.assignments.lockById(manager, leaseId);
      const lease = locked?.assignment ?? null;
      if (locked === null || lease === null || lease.kind !== 'lease' || lease.minerHotkey !== hotkey || lease.status !== 'active') {
        return { refusal: leaseNotFound(leaseId) };
      }
      if (locked.pastTimeout) {
        await this.assignments.close(manager, lease.id, 'expired');
        return { refusal: leaseNotFound(leaseId) };
      }
      if (body.evolutions.length > lease.evolveBudget) {
        throw new ApiValidationError([
          {
            type: 'too_many_evolutions',
            loc: ['body', 'evolutions'],
            msg: `This lease accepts at most ${lease.evolveBudget} evolution(s)`,
            ctx: { evolve_budget: lease.evolveBudget, submitted: body.evolutions.length },
          },
        ]);
      }
      const scores = this.checkScores(lease, body.evaluations, ['body', 'evaluations']);
      // A lease's parents are its seeds and the algorithms it hands out for evaluation; named ones must be among them.
      const offered = [...new Set([...lease.seedIds, ...lease.algorithmIds])];
      const evolutions = body.evolutions.map((evolution, index) => ({
        dsl: evolution.algorithm_dsl,
        parents: checkParents(offered, evolution.parent_algorithm_ids, ['body', 'evolutions', index, 'parent_algorithm_ids'], lease.seedIds),
      }));
      const recordedEvaluations = await this.consensus.record(manager, miner, lease.id, scores);
      const createdAlgorithmIds: number[] = [];
      const duplicateAlgorithmIds: number[] = [];
      for (const evolution of evolutions) {
        const outcome = await this.createEvolution(manager, miner, lease.taskType, { named: evolution.parents, offered: lease.seedIds }, evolution.dsl);
        (outcome.status === 'accepted' ? createdAlgorithmIds : duplicateAlgorithmIds).push(outcome.algorithmId);
      }
      await this.assignments.close(manager, lease.id, 'submitted');
      return { value: { recordedEvaluations, createdAlgorithmIds, duplicateAlgorithmIds } };
    });
  }

  /** `GET /api/v1/tasks/pending_evaluations`. */
  async pendingEvaluations(hotkey: string): Promise<number> {
    const miner = await this.miner(hotkey);
    return inTransaction(this.dataSource, async (manager) => {
      await this.miners.touchQuietly(manager, hotkey);
      return this.algorithms.countEvaluableBy(manager, miner, this.config.mining.defaultTaskType);
    });
  }

  /** The sweeper's pass: every active assignment past its timeout expires. */
  expireAll(): Promise<number> {
    return this.assignments.expireStale(this.dataSource.manager);
  }

  private async miner(hotkey: string): Promise<Miner> {
    return { hotkey, owner: await this.owners.ownerOf(hotkey) };
  }

  /**
   * At most POOL_BATCHES_PER_WINDOW batches and leases per owner coldkey and window (429 beyond). The owner's
   * advisory lock serialises the count with the insert, so hotkeys of one owner cannot race past it.
   */
  private async assertWindowBudget(manager: EntityManager, miner: Miner, windowNumber: number): Promise<void> {
    const limit = this.config.mining.batchesPerWindow;
    await this.assignments.lockOwner(manager, miner.owner);
    const used = await this.assignments.countInWindow(manager, miner.owner, windowNumber);
    if (used < limit) return;
    const retryAfter = await this.clock.secondsToNextWindow();
    throw new ApiError(
      ErrorCode.WindowBatchLimit,
      `The owner of this hotkey has had its ${limit} batches and leases of window ${windowNumber}; wait for the next window.`,
      { window_number: windowNumber, limit, owner_coldkey: miner.owner },
      { 'retry-after': String(retryAfter) },
    );
  }

  private async insert(
    manager: EntityManager,
    miner: Miner,
    a: { kind: AssignmentKind; taskType: string; algorithmIds: number[]; seedIds: number[]; windowNumber: number; evolveBudget: number },
  ): Promise<AssignmentEntity> {
    const inserted = await this.assignments.insertActive(manager, {
      ...a,
      minerHotkey: miner.hotkey,
      ownerColdkey: miner.owner,
      timeoutSeconds: this.config.mining.assignmentTimeoutSeconds,
    });
    if (inserted !== null) return inserted;
    // A concurrent request of the same miner won the unique index: answer what it decided.
    if (a.kind === 'lease' && (await this.assignments.hasLeaseInWindow(manager, miner.hotkey, a.windowNumber))) throw leaseWindowTaken(a.windowNumber);
    const active = await this.assignments.findActive(manager, miner.hotkey);
    throw activeTask(active === null ? null : { id: active.id, timeoutAt: active.timeoutAt });
  }

  /** Locks the signer's batch of `kind`; a refusal that expired it must commit before it is answered. */
  private async lockBatch(manager: EntityManager, hotkey: string, batchId: string, kind: AssignmentKind): Promise<Refusable<AssignmentEntity>> {
    const locked = await this.assignments.lockById(manager, batchId);
    if (locked === null) throw ApiError.notFound(ErrorCode.AssignmentNotFound, `No batch with id ${batchId}.`, { batch_id: batchId });
    const assignment = locked.assignment;
    if (assignment.minerHotkey !== hotkey) {
      throw ApiError.forbidden(ErrorCode.NotAssignmentOwner, 'This batch was assigned to another miner.', { batch_id: batchId });
    }
    if (assignment.kind !== kind) {
      throw ApiError.conflict(ErrorCode.AssignmentNotActive, `Assignment ${batchId} is a ${assignment.kind} assignment, not an ${kind} batch.`, {
        batch_id: batchId,
        kind: assignment.kind,
      });
    }
    if (assignment.status === 'active' && locked.pastTimeout) {
      await this.assignments.close(manager, assignment.id, 'expired');
      return { refusal: notActive(batchId, 'expired') };
    }
    if (assignment.status !== 'active') return { refusal: notActive(batchId, assignment.status) };
    return { value: assignment };
  }

  /**
   * Creates the evolution unless its canonical DSL already exists in the task type: then the existing id,
   * never a new algorithm and never rewarded. `named` are the parents the author gave (all offered by its
   * assignment); the improvement bonus is judged against the best of those and of what the assignment offered.
   */
  private async createEvolution(manager: EntityManager, miner: Miner, taskType: string, parents: { named: number[]; offered: number[] }, dsl: string): Promise<EvolutionOutcome> {
    const named = await this.algorithms.byIds(manager, parents.named);
    const id = await this.algorithms.insert(manager, {
      taskType,
      algorithmDsl: dsl,
      inputDim: named[0]?.inputDim ?? 16,
      parentIds: named.map((p) => p.id),
      barParentIds: [...new Set([...parents.offered, ...parents.named])].sort((a, b) => a - b),
      authorHotkey: miner.hotkey,
      authorOwner: miner.owner,
    });
    if (id !== null) return { status: 'accepted', algorithmId: id };
    return { status: 'duplicate', algorithmId: await this.algorithms.idOfDuplicate(manager, taskType, dsl) };
  }

  /** Scores must name algorithms of the assignment, each once, within POOL_SCORE_MIN..POOL_SCORE_MAX (422 otherwise). */
  private checkScores(assignment: AssignmentEntity, evaluations: { algorithm_id: number; score: number }[], loc: (string | number)[]): SubmittedScore[] {
    const { scoreMin, scoreMax } = this.config.mining;
    const allowed = new Set(assignment.algorithmIds);
    const seen = new Set<number>();
    const items: ValidationErrorItem[] = [];
    evaluations.forEach((e, index) => {
      const at = [...loc, index, 'algorithm_id'];
      if (!allowed.has(e.algorithm_id)) {
        items.push({ type: 'algorithm_not_assigned', loc: at, msg: 'This algorithm is not part of the assignment', input: e.algorithm_id });
      } else if (seen.has(e.algorithm_id)) {
        items.push({ type: 'duplicate_algorithm_id', loc: at, msg: 'Each algorithm may be scored once', input: e.algorithm_id });
      }
      if (!(e.score >= scoreMin && e.score <= scoreMax)) {
        items.push({ type: 'score_out_of_range', loc: [...loc, index, 'score'], msg: `Scores lie in ${scoreMin}..${scoreMax}`, input: e.score, ctx: { min: scoreMin, max: scoreMax } });
      }
      seen.add(e.algorithm_id);
    });
    if (items.length > 0) throw new ApiValidationError(items);
    return evaluations.map((e) => ({ algorithmId: e.algorithm_id, score: e.score }));
  }

  /** Runs `fn` in a transaction; a refusal is thrown after the commit so that what it changed (an expiry) stays. */
  private async settle<T>(fn: (manager: EntityManager) => Promise<Refusable<T>>): Promise<T> {
    return orRefused(await inTransaction(this.dataSource, fn));
  }
}

/**
 * Parents an evolution names must be algorithms its assignment offered (422 `parent_not_assigned`); none named
 * means all of `fallback` (the assignment's own parents).
 */
function checkParents(offered: number[], named: number[], loc: (string | number)[], fallback: number[] = offered): number[] {
  if (named.length === 0) return fallback;
  const allowed = new Set(offered);
  const items: ValidationErrorItem[] = named.flatMap((id, index) =>
    allowed.has(id) ? [] : [{ type: 'parent_not_assigned', loc: [...loc, index], msg: 'Parents must be algorithms of this assignment', input: id }],
  );
  if (items.length > 0) throw new ApiValidationError(items);
  return [...new Set(named)];
}

function activeTask(active: { id: string; timeoutAt: Date } | null): ApiError {
  return new ApiError(ErrorCode.ActiveAssignmentExists, `${ACTIVE_TASK_MESSAGE}: submit it or wait until it times out.`, {
    assignment_id: active?.id ?? null,
    timeout_at: active?.timeoutAt.toISOString() ?? null,
  });
}

function leaseWindowTaken(windowNumber: number): ApiError {
  return new ApiError(ErrorCode.LeaseAlreadyIssued, LEASE_WINDOW_MESSAGE, { window_number: windowNumber });
}

function leaseNotFound(leaseId: string): ApiError {
  return ApiError.notFound(ErrorCode.LeaseNotFound, `${LEASE_NOT_FOUND_MESSAGE}: no active lease ${leaseId} for this hotkey.`, { lease_id: leaseId });
}

function noTasks(message: string): ApiError {
  return ApiError.notFound(ErrorCode.NoTasksAvailable, message);
}

function notActive(batchId: string, status: string): ApiError {
  return ApiError.conflict(ErrorCode.AssignmentNotActive, `Batch ${batchId} is ${status}; request a new one.`, { batch_id: batchId, status });
}
