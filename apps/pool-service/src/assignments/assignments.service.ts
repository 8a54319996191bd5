import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  ApiError,
  ApiValidationError,
  BatchKind,
  ErrorCode,
  EvaluationSubmissionDto,
  EvolutionSubmissionDto,
  LeaseRequestDto,
  LeaseSubmissionDto,
  parentIdOf,
  type ValidationErrorItem,
} from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { DataSource, EntityManager } from 'typeorm';
import { AlgorithmsRepository } from '../algorithms/algorithms.repository';
import { ConsensusService, SubmittedScore } from '../algorithms/consensus.service';
import { AlgorithmEntity } from '../algorithms/entities/algorithm.entity';
import { PoolClock } from '../common/pool-clock';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { MinersRepository } from '../miners/miners.repository';
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
}

type Outcome<T> = { value: T } | { refusal: ApiError };

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
    private readonly clock: PoolClock,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  /** `POST /api/v1/tasks/request`: an evaluate or evolve batch. */
  async requestBatch(hotkey: string, kind: BatchKind): Promise<IssuedBatch> {
    const mining = this.config.mining;
    return inTransaction(this.dataSource, async (manager) => {
      const blockers = await this.assignments.prepareMiner(manager, hotkey, null);
      if (blockers.active !== null) throw activeTask(blockers.active);
      const algorithms =
        kind === 'evaluate'
          ? await this.algorithms.evaluableBy(manager, hotkey, mining.defaultTaskType, mining.evalBatchSize)
          : await this.algorithms.parentsFor(manager, mining.defaultTaskType, mining.evolveParents);
      if (algorithms.length === 0) throw noTasks(kind === 'evaluate' ? 'No algorithms are waiting for evaluation.' : 'No algorithms to evolve yet.');
      const assignment = await this.insert(manager, {
        minerHotkey: hotkey,
        kind,
        taskType: mining.defaultTaskType,
        algorithmIds: algorithms.map((a) => a.id),
        seedIds: [],
        windowNumber: null,
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
    const windowNumber = request.sim_window_number ?? (await this.clock.currentWindow());
    const taskType = request.task_type ?? mining.defaultTaskType;
    return inTransaction(this.dataSource, async (manager) => {
      const blockers = await this.assignments.prepareMiner(manager, hotkey, windowNumber);
      if (blockers.leaseInWindow) throw leaseWindowTaken(windowNumber);
      if (blockers.active !== null) throw activeTask(blockers.active);
      const evaluate = await this.algorithms.evaluableBy(manager, hotkey, taskType, request.eval_batch_size ?? mining.evalBatchSize);
      const seedLimit = request.seed_batch_size ?? mining.evolveParents;
      const gossipLimit = Math.min(MAX_GOSSIP_LIMIT, Math.max(0, request.gossip_limit ?? DEFAULT_GOSSIP_LIMIT));
      // One read of the best scored algorithms serves both the parents and the gossip.
      const best = await this.algorithms.bestScored(manager, taskType, Math.max(seedLimit, gossipLimit));
      const seeds = best.length > 0 ? best.slice(0, seedLimit) : await this.algorithms.parentsFor(manager, taskType, seedLimit);
      const evolveBudget = seeds.length > 0 ? mining.leaseEvolveBudget : 0;
      if (evaluate.length === 0 && evolveBudget === 0) throw noTasks(`Nothing to evaluate or evolve for ${taskType}.`);
      const gossip = best.slice(0, gossipLimit);
      const assignment = await this.insert(manager, {
        minerHotkey: hotkey,
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
    return this.settle(async (manager) => {
      const assignment = await this.lockBatch(manager, hotkey, batchId, 'evaluate');
      if ('refusal' in assignment) return assignment;
      const scores = checkScores(assignment.value, body.evaluations, ['body', 'evaluations']);
      const recorded = await this.consensus.record(manager, hotkey, assignment.value.id, scores);
      await this.assignments.close(manager, assignment.value.id, 'submitted');
      return { value: recorded };
    });
  }

  /** `POST /api/v1/tasks/{batch_id}/submit_evolution`. */
  async submitEvolution(hotkey: string, batchId: string, body: EvolutionSubmissionDto): Promise<number> {
    return this.settle(async (manager) => {
      const assignment = await this.lockBatch(manager, hotkey, batchId, 'evolve');
      if ('refusal' in assignment) return assignment;
      const given = body.parent_functions.map(parentIdOf).filter((id): id is number => id !== null);
      const parents = given.length > 0 ? given : assignment.value.algorithmIds;
      const id = await this.createEvolution(manager, hotkey, assignment.value.taskType, parents, body.evolved_function);
      await this.assignments.close(manager, assignment.value.id, 'submitted');
      return { value: id };
    });
  }

  /** `POST /api/v1/tasks/{lease_id}/submit_lease`. */
  async submitLease(hotkey: string, leaseId: string, body: LeaseSubmissionDto): Promise<LeaseOutcome> {
    return this.settle(async (manager): Promise<Outcome<LeaseOutcome>> => {
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
      const scores = checkScores(lease, body.evaluations, ['body', 'evaluations']);
      const recordedEvaluations = await this.consensus.record(manager, hotkey, lease.id, scores);
      const createdAlgorithmIds: number[] = [];
      for (const evolution of body.evolutions) {
        const parents = evolution.parent_algorithm_ids.length > 0 ? evolution.parent_algorithm_ids : lease.seedIds;
        createdAlgorithmIds.push(await this.createEvolution(manager, hotkey, lease.taskType, parents, evolution.algorithm_dsl));
      }
      await this.assignments.close(manager, lease.id, 'submitted');
      return { value: { recordedEvaluations, createdAlgorithmIds } };
    });
  }

  /** `GET /api/v1/tasks/pending_evaluations`. */
  pendingEvaluations(hotkey: string): Promise<number> {
    return inTransaction(this.dataSource, async (manager) => {
      await this.miners.touchQuietly(manager, hotkey);
      return this.algorithms.countEvaluableBy(manager, hotkey, this.config.mining.defaultTaskType);
    });
  }

  /** The sweeper's pass: every active assignment past its timeout expires. */
  expireAll(): Promise<number> {
    return this.assignments.expireStale(this.dataSource.manager);
  }

  private async insert(manager: EntityManager, a: { minerHotkey: string; kind: AssignmentKind; taskType: string; algorithmIds: number[]; seedIds: number[]; windowNumber: number | null; evolveBudget: number }): Promise<AssignmentEntity> {
    const inserted = await this.assignments.insertActive(manager, { ...a, timeoutSeconds: this.config.mining.assignmentTimeoutSeconds });
    if (inserted !== null) return inserted;
    // A concurrent request of the same miner won the unique index: answer what it decided.
    if (a.windowNumber !== null && (await this.assignments.hasLeaseInWindow(manager, a.minerHotkey, a.windowNumber))) throw leaseWindowTaken(a.windowNumber);
    const active = await this.assignments.findActive(manager, a.minerHotkey);
    throw activeTask(active === null ? null : { id: active.id, timeoutAt: active.timeoutAt });
  }

  /** Locks the signer's batch of `kind`; a refusal that expired it must commit before it is answered. */
  private async lockBatch(manager: EntityManager, hotkey: string, batchId: string, kind: AssignmentKind): Promise<Outcome<AssignmentEntity>> {
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

  private async createEvolution(manager: EntityManager, hotkey: string, taskType: string, parentIds: number[], dsl: string): Promise<number> {
    const parents = await this.algorithms.byIds(manager, [...new Set(parentIds)]);
    const id = await this.algorithms.insert(manager, {
      taskType,
      algorithmDsl: dsl,
      inputDim: parents[0]?.inputDim ?? 16,
      parentIds: parents.map((p) => p.id),
      authorHotkey: hotkey,
    });
    if (id === null) {
      throw ApiError.conflict(ErrorCode.DuplicateAlgorithm, `This algorithm already exists for ${taskType} (same DSL once comments and spacing are ignored).`, {
        task_type: taskType,
      });
    }
    return id;
  }

  /** Runs `fn` in a transaction; a refusal is thrown after the commit so that what it changed (an expiry) stays. */
  private async settle<T>(fn: (manager: EntityManager) => Promise<Outcome<T>>): Promise<T> {
    const outcome = await inTransaction(this.dataSource, fn);
    if ('refusal' in outcome) throw outcome.refusal;
    return outcome.value;
  }
}

/** Scores must name algorithms of the assignment, each once (422 otherwise). */
function checkScores(assignment: AssignmentEntity, evaluations: { algorithm_id: number; score: number }[], loc: (string | number)[]): SubmittedScore[] {
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
    seen.add(e.algorithm_id);
  });
  if (items.length > 0) throw new ApiValidationError(items);
  return evaluations.map((e) => ({ algorithmId: e.algorithm_id, score: e.score }));
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
