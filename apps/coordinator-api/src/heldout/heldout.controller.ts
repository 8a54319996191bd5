import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Admin, CurrentAuth, HotkeyPrincipal, Validator } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ApiValidationError, ErrorCode, HeldoutDeletedDto, HELDOUT_NAME_HEADER, HELDOUT_SHARD_NAME, HeldoutShardDto, HeldoutVerificationDto, SIGNATURE_ERRORS } from '@rcs/contracts';
import { validationItem } from '@rcs/http';
import { HeldoutShardEntity } from './entities/heldout-shard.entity';
import { HeldoutService } from './heldout.service';

const TASK_ID = { name: 'task_id', description: 'Task id (uuid); anything else is 404 `task_not_found`.' };
const ADMIN_ERRORS = [ErrorCode.InvalidAdminToken, [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set']] as const;

function toShardDto(shard: HeldoutShardEntity): HeldoutShardDto {
  return { task_id: shard.taskId, sha256: shard.sha256, name: shard.name, bytes: shard.bytes, created_at: shard.createdAt.toISOString() };
}

/**
 * Private held-out delivery (DECISIONS.md §6): the admin routes under a task, and the one signed validator
 * route that serves a leased job's shard. No public route answers anything about shards.
 */
@ApiTags('heldout')
@Controller('api/v1')
export class HeldoutController {
  constructor(private readonly heldout: HeldoutService) {}

  @Post('tasks/:task_id/heldout')
  @Admin()
  @ApiOperation({
    summary: "Upload one of a task's held-out shards",
    description:
      'Admin only. The body is the raw bytes (`Content-Type: application/octet-stream`), at most HELDOUT_MAX_BYTES; the shard ' +
      'name is the `X-Heldout-Name` header (not a query parameter: request logs carry URLs). Stored in HELDOUT_STORE_DIR under its SHA-256: the same bytes again are the same ' +
      'shard (200, the first name kept); new bytes 201. Tasks select shards with `<NAME>_SHARD` in validator_benchmark_env.',
  })
  @ApiParam(TASK_ID)
  @ApiHeader({ name: 'X-Heldout-Name', required: true, description: 'Shard name: letters, digits, `.`, `_`, `-`, 1..128, starting with a letter or digit.' })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ description: 'The shard bytes.', schema: { type: 'string', format: 'binary' } })
  @ApiCreatedResponse({ type: HeldoutShardDto, description: 'The stored shard (200 when the task already held these bytes).' })
  @ApiValidationFailure('`X-Heldout-Name` missing or not a file-name-like label; an empty body.')
  @ApiErrors(ErrorCode.TaskNotFound, [ErrorCode.BodyTooLarge, 'over HELDOUT_MAX_BYTES'], [ErrorCode.UnsupportedMediaType, 'not application/octet-stream'], ...ADMIN_ERRORS)
  async upload(
    @Param('task_id') taskId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HeldoutShardDto> {
    const name = request.headers[HELDOUT_NAME_HEADER];
    if (typeof name !== 'string' || !HELDOUT_SHARD_NAME.test(name)) {
      throw new ApiValidationError([
        name === undefined
          ? validationItem('missing', ['header', HELDOUT_NAME_HEADER], 'Field required')
          : validationItem('string_pattern_mismatch', ['header', HELDOUT_NAME_HEADER], 'The shard name must be letters, digits, ".", "_" or "-" (1..128), starting with a letter or digit.'),
      ]);
    }
    const body = request.body;
    if (!(body instanceof Readable)) {
      throw new ApiValidationError([validationItem('missing', ['body'], 'The shard bytes are required (application/octet-stream).')]);
    }
    const declared = request.headers['content-length'];
    const { shard, created } = await this.heldout.upload(taskId, name, body, declared === undefined ? null : Number(declared));
    void reply.status(created ? 201 : 200);
    return toShardDto(shard);
  }

  @Get('tasks/:task_id/heldout')
  @Admin()
  @ApiOperation({ summary: "A task's held-out shards", description: 'Admin only. Oldest first.' })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: HeldoutShardDto, isArray: true, description: 'The shards.' })
  @ApiErrors(ErrorCode.TaskNotFound, ...ADMIN_ERRORS)
  async list(@Param('task_id') taskId: string): Promise<HeldoutShardDto[]> {
    return (await this.heldout.list(taskId)).map(toShardDto);
  }

  @Get('tasks/:task_id/heldout/verifications')
  @Admin()
  @ApiOperation({
    summary: "Which held-out shard each of a task's verifications used, with its raw metrics",
    description:
      'Admin only, newest first: the audit trail of private held-out delivery. Under a held-out budget it carries the raw ' +
      'metrics the public does not see until their shard retires (DECISIONS §17), beside what each result released.',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: HeldoutVerificationDto, isArray: true, description: 'The verifications with their shards.' })
  @ApiErrors(ErrorCode.TaskNotFound, ...ADMIN_ERRORS)
  async verifications(@Param('task_id') taskId: string): Promise<HeldoutVerificationDto[]> {
    return (await this.heldout.shardUses(taskId)).map((use) => ({
      verification_id: use.verificationId,
      job_id: use.jobId,
      submission_id: use.submissionId,
      validator_hotkey: use.validatorHotkey,
      status: use.status,
      heldout_sha256: use.heldoutSha256,
      heldout_name: use.heldoutName,
      metric_value: use.metricValue,
      observed_metrics: use.observedMetrics,
      release: use.release,
      released_metric_value: use.releasedMetricValue,
      metric_withheld: use.metricWithheld,
      created_at: use.createdAt.toISOString(),
    }));
  }

  @Delete('tasks/:task_id/heldout/:sha256')
  @Admin()
  @HttpCode(200)
  @ApiOperation({ summary: "Delete one of a task's held-out shards", description: 'Admin only. The file goes once no task holds the same bytes.' })
  @ApiParam(TASK_ID)
  @ApiParam({ name: 'sha256', description: 'Lowercase hex SHA-256 of the shard.' })
  @ApiOkResponse({ type: HeldoutDeletedDto, description: 'What was removed.' })
  @ApiErrors(ErrorCode.TaskNotFound, ErrorCode.HeldoutShardNotFound, ...ADMIN_ERRORS)
  async delete(@Param('task_id') taskId: string, @Param('sha256') sha256: string): Promise<HeldoutDeletedDto> {
    const { fileRemoved } = await this.heldout.delete(taskId, sha256);
    return { deleted: true, sha256: sha256.toLowerCase(), file_removed: fileRemoved };
  }

  @Get('validator/jobs/:job_id/heldout')
  @Validator()
  @ApiOperation({
    summary: "Download a leased job's held-out shard",
    description:
      'Only the allowlisted validator holding the live lease of the job gets the bytes of the shard chosen for it ' +
      '(`<NAME>_URL` in the job\'s validator_benchmark_env points here; `<NAME>_SHA256` is their digest). Another validator ' +
      '403 `not_job_lessee`; a job back in the pool or past its lease 409 `job_not_leased`; a completed job 409.',
  })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The shard bytes.', schema: { type: 'string', format: 'binary' } })
  @ApiErrors(
    ErrorCode.JobNotFound,
    ErrorCode.HeldoutShardNotFound,
    ErrorCode.NotJobLessee,
    ErrorCode.JobNotLeased,
    ErrorCode.JobAlreadyCompleted,
    ...SIGNATURE_ERRORS,
    ErrorCode.ValidatorNotAllowlisted,
    [ErrorCode.ValidatorAllowlistUnconfigured, 'no VALIDATOR_HOTKEYS'],
  )
  async download(@CurrentAuth() validator: HotkeyPrincipal, @Param('job_id') jobId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile> {
    const shard = await this.heldout.download(validator.hotkey, jobId);
    void reply.header('cache-control', 'no-store');
    void reply.header('x-content-sha256', shard.sha256);
    return new StreamableFile(shard.stream, { type: 'application/octet-stream', length: shard.bytes });
  }
}
