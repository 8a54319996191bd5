import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthPrincipal, CurrentAuth, HotkeyPrincipal, Signed, StakeGated } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ArtifactDescriptorDto, CreateSubmissionDto, ErrorCode, SIGNATURE_ERRORS, SubmissionDetailDto, SubmissionDto, SubmissionQueryDto } from '@rcs/contracts';
import { JsonAnswer, jsonAnswer, sendJson } from '../common/json-answer';
import { ReadCoalescer } from '../common/read-coalescer';
import { toSubmissionDto } from './submission.mapper';
import { SubmissionsService } from './submissions.service';

const PATH_INVALID = 'Path parameter fails validation.';

@ApiTags('submissions')
@Controller('api/v1/submissions')
export class SubmissionsController {
  /** Concurrent reads of one submission (each request checked by its own guard) share a query and its answer. */
  private readonly reads = new ReadCoalescer<JsonAnswer>();

  constructor(private readonly submissions: SubmissionsService) {}

  @Post()
  @StakeGated()
  @ApiOperation({
    summary: 'Create a submission on your active claim',
    description:
      'A non-empty patch (unified git diff inside the task\'s allowed_patch_paths) and/or an artifact (https URI, SHA-256, size). ' +
      'Centerless tasks also need proposed_idea and, once another miner has proposed an idea, implemented_submission_id. ' +
      'The claim becomes submitted, its work item completed and, on standard and centerless tasks, a validator job pending.',
  })
  @ApiCreatedResponse({ type: SubmissionDto, description: 'Stored as pending_verification.' })
  @ApiValidationFailure('Body bounds; patch_or_artifact_required; artifact fields (missing, url_parsing, url_scheme); patch surface ' +
      '(patch_path_not_allowed, patch_too_large, patch_bytecode, patch_binary, patch_unparseable); idea rules ' +
      '(proposed_idea_required, implemented_submission_required, implemented_submission_invalid).')
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.InvalidAdminToken, ErrorCode.InsufficientMinerStake, ErrorCode.NotClaimOwner, ErrorCode.ClaimNotFound, ErrorCode.ClaimNotActive, ErrorCode.ClaimExpired, ErrorCode.TaskNotLive, [ErrorCode.RateLimited, '(with Retry-After)'])
  async create(@CurrentAuth() miner: HotkeyPrincipal, @Body() body: CreateSubmissionDto): Promise<SubmissionDto> {
    return toSubmissionDto(await this.submissions.create(miner.hotkey, body));
  }

  @Get()
  @Signed({ allowAdmin: true })
  @ApiOperation({ summary: 'List submissions, newest first', description: 'Any valid signature (or admin token); filtered by task and status, paged.' })
  @ApiOkResponse({ type: [SubmissionDto], description: 'Newest first (created_at, then id).' })
  @ApiValidationFailure('Query fails validation (limit 1..1000, offset >= 0, status).')
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.InvalidAdminToken)
  async list(@Query() query: SubmissionQueryDto): Promise<SubmissionDto[]> {
    return (await this.submissions.list(query)).map(toSubmissionDto);
  }

  @Get(':submission_id')
  @Signed({ allowAdmin: true })
  @ApiOperation({ summary: 'One submission' })
  @ApiOkResponse({ type: SubmissionDto, description: 'The submission.' })
  @ApiErrors(ErrorCode.SubmissionNotFound, ...SIGNATURE_ERRORS, ErrorCode.InvalidAdminToken)
  @ApiValidationFailure(PATH_INVALID)
  async get(@Param('submission_id') submissionId: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const answer = await this.reads.read(submissionId, async () => jsonAnswer(toSubmissionDto(await this.submissions.get(submissionId))));
    return sendJson(request, reply, answer);
  }

  @Get(':submission_id/detail')
  @Signed({ allowAdmin: true })
  @ApiOperation({ summary: 'A submission with its verifications, peer evaluations and idea rewards', description: 'Owner (or admin) only.' })
  @ApiOkResponse({ type: SubmissionDetailDto, description: 'The submission and everything decided about it.' })
  @ApiErrors(ErrorCode.NotSubmissionOwner, ErrorCode.SubmissionNotFound, ...SIGNATURE_ERRORS, ErrorCode.InvalidAdminToken)
  @ApiValidationFailure(PATH_INVALID)
  detail(@CurrentAuth() auth: AuthPrincipal, @Param('submission_id') submissionId: string): Promise<SubmissionDetailDto> {
    return this.submissions.detail(auth, submissionId);
  }

  @Get(':submission_id/execution.log')
  @Signed({ allowAdmin: true })
  @ApiProduces('text/plain')
  @ApiOperation({ summary: "The miner's own execution log", description: 'Empty when none was submitted.' })
  @ApiOkResponse({ description: 'The log text.', schema: { type: 'string' } })
  @ApiErrors(ErrorCode.SubmissionNotFound, ...SIGNATURE_ERRORS, ErrorCode.InvalidAdminToken)
  @ApiValidationFailure(PATH_INVALID)
  async executionLog(@Param('submission_id') submissionId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const log = await this.submissions.executionLog(submissionId);
    // Set on success only: a @Header() would also label the JSON error body of a 404 as text.
    void reply.type('text/plain; charset=utf-8');
    return log;
  }

  @Get(':submission_id/artifact')
  @Signed({ allowAdmin: true })
  @ApiOperation({ summary: 'Where the artifact is and how to check it', description: 'The service stores the URI and integrity metadata, never the bytes.' })
  @ApiOkResponse({ type: ArtifactDescriptorDto, description: 'The artifact descriptor.' })
  @ApiErrors(ErrorCode.SubmissionNotFound, ErrorCode.ArtifactNotFound, ...SIGNATURE_ERRORS, ErrorCode.InvalidAdminToken)
  @ApiValidationFailure(PATH_INVALID)
  artifact(@Param('submission_id') submissionId: string): Promise<ArtifactDescriptorDto> {
    return this.submissions.artifact(submissionId);
  }
}
