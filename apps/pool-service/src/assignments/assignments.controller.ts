import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, HotkeyPrincipal, PoolSigned } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, DeclaredError, ErrorCode, EvaluationAcceptedDto, EvaluationSubmissionDto, EvolutionAcceptedDto, EvolutionSubmissionDto, LeaseAcceptedDto, LeaseRequestDto, LeaseSubmissionDto, PendingEvaluationsDto, PoolBatchDto, PoolLeaseDto, SIGNATURE_ERRORS, TaskRequestDto } from '@rcs/contracts';
import { AlgorithmEntity } from '../algorithms/entities/algorithm.entity';
import { iso } from '../common/iso';
import { PoolBody } from '../common/pool-model.pipe';
import { AssignmentsService } from './assignments.service';


/** What every miner route may answer besides its own refusals: the signature's 401s and the stake gate's 403. */
const MINER_ERRORS: DeclaredError[] = [
  ...SIGNATURE_ERRORS,
  [ErrorCode.InsufficientMinerStake, 'neither POOL_MIN_STAKE_RAO of alpha stake nor a uid on the subnet'],
  [ErrorCode.ChainUnavailable, 'the stake, the owner coldkey or the current window cannot be read from the chain'],
];

const INVALID = 'Known fields out of bounds (unknown properties are ignored).';

function algorithmDto(a: AlgorithmEntity) {
  return { id: a.id, algorithm_dsl: a.algorithmDsl, input_dim: a.inputDim, task_type: a.taskType };
}

/** Pool task and lease routes (spec 001 "Pool task / lease routes"; DECISIONS.md §11). Not the coordinator's tasks. */
@ApiTags('pool tasks')
@Controller('api/v1/tasks')
export class AssignmentsController {
  constructor(private readonly assignments: AssignmentsService) {}

  @Get('pending_evaluations')
  @PoolSigned()
  @ApiOperation({ summary: 'Whether evaluation work waits for the signer' })
  @ApiOkResponse({ type: PendingEvaluationsDto, description: 'Pending algorithms the signer may evaluate.' })
  @ApiErrors(...MINER_ERRORS)
  async pendingEvaluations(@CurrentAuth() miner: HotkeyPrincipal): Promise<PendingEvaluationsDto> {
    const count = await this.assignments.pendingEvaluations(miner.hotkey);
    return { has_pending_evaluations: count > 0, count };
  }

  @Post('request')
  @HttpCode(200)
  @PoolSigned()
  @ApiOperation({ summary: 'Request an evolve or evaluate batch (TaskRequest)', description: 'One active batch or lease per miner.' })
  @ApiBody({ type: TaskRequestDto, required: false })
  @ApiOkResponse({ type: PoolBatchDto, description: 'The batch.' })
  @ApiErrors(
    [ErrorCode.ActiveAssignmentExists, 'message contains "Miner already has active task" (compat)'],
    ErrorCode.NoTasksAvailable,
    [ErrorCode.WindowBatchLimit, 'the owner coldkey had POOL_BATCHES_PER_WINDOW batches and leases this window; with Retry-After'],
    ...MINER_ERRORS,
  )
  @ApiValidationFailure(INVALID)
  async request(@CurrentAuth() miner: HotkeyPrincipal, @PoolBody(TaskRequestDto) body: TaskRequestDto): Promise<PoolBatchDto> {
    const kind = body.task_type ?? 'evolve';
    const { assignment, algorithms } = await this.assignments.requestBatch(miner.hotkey, kind);
    return { batch_id: assignment.id, task_type: kind, algorithms: algorithms.map(algorithmDto), timeout_at: iso(assignment.timeoutAt) };
  }

  @Post('lease')
  @HttpCode(200)
  @PoolSigned()
  @ApiOperation({ summary: 'Request a lease (LeaseRequest)', description: 'One lease per miner per window, and one active assignment per miner.' })
  @ApiBody({ type: LeaseRequestDto, required: false })
  @ApiOkResponse({ type: PoolLeaseDto, description: 'The lease.' })
  @ApiErrors(
    ErrorCode.LeaseAlreadyIssued,
    ErrorCode.ActiveAssignmentExists,
    ErrorCode.NoTasksAvailable,
    [ErrorCode.WindowBatchLimit, 'the owner coldkey had POOL_BATCHES_PER_WINDOW batches and leases this window; with Retry-After'],
    ...MINER_ERRORS,
  )
  @ApiValidationFailure(INVALID)
  async lease(@CurrentAuth() miner: HotkeyPrincipal, @PoolBody(LeaseRequestDto) body: LeaseRequestDto): Promise<PoolLeaseDto> {
    const lease = await this.assignments.lease(miner.hotkey, body);
    return {
      lease_id: lease.assignment.id,
      window_number: lease.assignment.windowNumber ?? 0,
      timeout_at: iso(lease.assignment.timeoutAt),
      evolve_budget: lease.assignment.evolveBudget,
      evaluate_algorithms: lease.evaluate.map(algorithmDto),
      seed_algorithms: lease.seeds.map(algorithmDto),
      gossip: { task_type: lease.assignment.taskType, algorithm_ids: lease.gossipIds },
    };
  }

  @Post(':lease_id/submit_lease')
  @HttpCode(200)
  @PoolSigned()
  @ApiOperation({ summary: 'Submit a lease (LeaseSubmission)' })
  @ApiOkResponse({ type: LeaseAcceptedDto, description: 'Recorded.' })
  @ApiErrors([ErrorCode.LeaseNotFound, 'message contains "Active lease assignment not found" (compat)'], ...MINER_ERRORS)
  @ApiValidationFailure('Bounds, scores out of range, ids or parents outside the lease, or more evolutions than evolve_budget.')
  async submitLease(
    @CurrentAuth() miner: HotkeyPrincipal,
    @Param('lease_id') leaseId: string,
    @PoolBody(LeaseSubmissionDto) body: LeaseSubmissionDto,
  ): Promise<LeaseAcceptedDto> {
    const outcome = await this.assignments.submitLease(miner.hotkey, leaseId, body);
    return {
      status: 'accepted',
      recorded_evaluations: outcome.recordedEvaluations,
      created_algorithm_ids: outcome.createdAlgorithmIds,
      duplicate_algorithm_ids: outcome.duplicateAlgorithmIds,
    };
  }

  @Post(':batch_id/submit_evolution')
  @HttpCode(200)
  @PoolSigned()
  @ApiOperation({ summary: 'Submit an evolved function (EvolutionSubmission)' })
  @ApiOkResponse({ type: EvolutionAcceptedDto, description: 'The new algorithm, or the existing one it duplicates.' })
  @ApiErrors(ErrorCode.NotAssignmentOwner, ErrorCode.AssignmentNotFound, ErrorCode.AssignmentNotActive, ...MINER_ERRORS)
  @ApiValidationFailure('Bounds, or parents that are not algorithms of the batch (`parent_not_assigned`).')
  async submitEvolution(
    @CurrentAuth() miner: HotkeyPrincipal,
    @Param('batch_id') batchId: string,
    @PoolBody(EvolutionSubmissionDto) body: EvolutionSubmissionDto,
  ): Promise<EvolutionAcceptedDto> {
    const outcome = await this.assignments.submitEvolution(miner.hotkey, batchId, body);
    return { status: outcome.status, algorithm_id: outcome.algorithmId };
  }

  @Post(':batch_id/submit_evaluation')
  @HttpCode(200)
  @PoolSigned()
  @ApiOperation({ summary: 'Submit evaluations of an evaluate batch' })
  @ApiOkResponse({ type: EvaluationAcceptedDto, description: 'Recorded.' })
  @ApiErrors(ErrorCode.NotAssignmentOwner, ErrorCode.AssignmentNotFound, [ErrorCode.AssignmentNotActive, '(expired, used, or not an evaluate batch)'], ...MINER_ERRORS)
  @ApiValidationFailure('No evaluation, ids outside the batch or repeated, scores non-finite or outside POOL_SCORE_MIN..POOL_SCORE_MAX.')
  async submitEvaluation(
    @CurrentAuth() miner: HotkeyPrincipal,
    @Param('batch_id') batchId: string,
    @PoolBody(EvaluationSubmissionDto) body: EvaluationSubmissionDto,
  ): Promise<EvaluationAcceptedDto> {
    return { status: 'accepted', recorded: await this.assignments.submitEvaluation(miner.hotkey, batchId, body) };
  }
}
