import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, HotkeyPrincipal, Validator } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ErrorCode, ScanRequestDto, ScanResponseDto, SIGNATURE_ERRORS, ValidatorJobClaimDto, ValidatorJobDto, ValidatorJobResultDto, VerificationSummaryDto } from '@rcs/contracts';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { serviceBaseUrl } from '../tasks/request-base-url';
import { ValidatorJobsService } from './validator-jobs.service';
import { toVerificationSummaryDto } from './verification.mapper';
import { ValidatorResultRoute } from './validator-result-route';

@ApiTags('validator')
@Controller('api/v1/validator')
export class ValidatorController {
  constructor(
    private readonly jobs: ValidatorJobsService,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {}

  /** Where the validator reaches this service: the held-out download URLs of its jobs start with it. */
  private baseUrl(request: FastifyRequest): string {
    return serviceBaseUrl(this.config, request);
  }

  @Post('submissions/scan')
  @HttpCode(200)
  @Validator()
  @ApiOperation({
    summary: 'Lease pending validator jobs',
    description:
      'Leases up to `limit` pending jobs (oldest first) to the signing validator for time_budget_seconds + LEASE_GRACE_SECONDS, ' +
      'each with its replay_spec (validator-private fields included). Concurrent scans never receive the same job. ' +
      'Only jobs whose task `hardware` the `capabilities` of the body meet are leased (our extension; absent: CPU only, so no GPU task). ' +
      'Nothing pending: `{jobs: []}`. The body is optional.',
  })
  @ApiBody({ type: ScanRequestDto, required: false })
  @ApiOkResponse({ type: ScanResponseDto, description: 'The jobs now leased to the caller.' })
  @ApiValidationFailure('Body fails validation (limit 1..16, unknown properties).')
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.ValidatorNotAllowlisted, [ErrorCode.ValidatorAllowlistUnconfigured, 'no VALIDATOR_HOTKEYS'])
  async scan(@CurrentAuth() validator: HotkeyPrincipal, @Body() body: ScanRequestDto, @Req() request: FastifyRequest): Promise<ScanResponseDto> {
    return { jobs: await this.jobs.scan(validator.hotkey, body, this.baseUrl(request)) };
  }

  @Post('jobs/claim')
  @HttpCode(200)
  @Validator()
  @ApiOperation({ summary: 'Lease one pending validator job', description: 'The single-job form of scan, with the same `capabilities` filter. The body is optional.' })
  @ApiBody({ type: ValidatorJobClaimDto, required: false })
  @ApiOkResponse({ type: ValidatorJobDto, description: 'The job now leased to the caller.' })
  @ApiErrors([ErrorCode.NoPendingValidatorJobs, '(the message says "no pending validator jobs")'], ...SIGNATURE_ERRORS, ErrorCode.ValidatorNotAllowlisted, [ErrorCode.ValidatorAllowlistUnconfigured, 'no VALIDATOR_HOTKEYS'])
  @ApiValidationFailure('Body fails validation (unknown properties).')
  claim(@CurrentAuth() validator: HotkeyPrincipal, @Body() body: ValidatorJobClaimDto, @Req() request: FastifyRequest): Promise<ValidatorJobDto> {
    return this.jobs.claim(validator.hotkey, body, this.baseUrl(request));
  }

  @ValidatorResultRoute('jobs/:job_id/result', 'Body fails validation; `missing` or `finite_number` for the task metric of an accepted result; `submission_mismatch`.', ErrorCode.JobNotFound, ErrorCode.JobNotLeased, ErrorCode.JobAlreadyCompleted)
  @ApiOperation({
    summary: "Post a leased job's observed result",
    description:
      'Only the validator holding a live lease may post. The observed task metric decides: `accepted` needs it as a finite ' +
      'number in observed_metrics. Re-posting the identical result to a completed job answers the same verification.',
  })
  async result(
    @CurrentAuth() validator: HotkeyPrincipal,
    @Param('job_id') jobId: string,
    @Body() body: ValidatorJobResultDto,
  ): Promise<VerificationSummaryDto> {
    return toVerificationSummaryDto(await this.jobs.postResult(validator.hotkey, jobId, body), 'validator');
  }
}
