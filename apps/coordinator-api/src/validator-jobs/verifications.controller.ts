import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Admin, AuthPrincipal, CurrentAuth, Validator } from '@rcs/auth';
import { ApiErrors, ErrorCode, SIGNATURE_ERRORS, ValidationErrorDto, VerificationQueryDto, VerificationSummaryDto, VerifyDto } from '@rcs/contracts';
import { toVerificationSummaryDto } from './verification.mapper';
import { VerificationsService } from './verifications.service';
import { PublicListRoute } from '../common/list-route';

/** What `@Validator()` admits: an allowlisted signing hotkey. */
type ValidatorPrincipal = Extract<AuthPrincipal, { kind: 'hotkey' }>;

const PATH_422 = { type: ValidationErrorDto, description: 'Path parameter fails validation.' };

@ApiTags('verifications')
@Controller('api/v1')
export class VerificationsController {
  constructor(private readonly verifications: VerificationsService) {}

  @Post('submissions/:submission_id/verify')
  @HttpCode(200)
  @Validator()
  @ApiOperation({
    summary: 'Manually verify a pending submission',
    description:
      "An allowlisted validator's observed result outside the lease flow; it completes the submission's job whatever its " +
      'lease state. Refused for peer_evaluation tasks.',
  })
  @ApiOkResponse({ type: VerificationSummaryDto, description: 'The recorded verification.' })
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Body fails validation; `missing` or `finite_number` for the task metric of an accepted result.' })
  @ApiErrors(ErrorCode.SubmissionNotFound, ErrorCode.VerifyNotAllowedForPeerEvaluation, ErrorCode.SubmissionAlreadyDecided, ...SIGNATURE_ERRORS, ErrorCode.ValidatorNotAllowlisted, [ErrorCode.ValidatorAllowlistUnconfigured, 'no VALIDATOR_HOTKEYS'])
  async verify(
    @CurrentAuth() validator: ValidatorPrincipal,
    @Param('submission_id') submissionId: string,
    @Body() body: VerifyDto,
  ): Promise<VerificationSummaryDto> {
    return toVerificationSummaryDto(await this.verifications.verify(validator.hotkey, submissionId, body));
  }

  @PublicListRoute('verifications', VerificationSummaryDto, 'Query fails validation (status, limit 1..1000, offset >= 0).')
  @ApiOperation({ summary: 'List verifications, newest first', description: 'Summaries without replay logs; filtered by submission and verdict, paged.' })
  async list(@Query() query: VerificationQueryDto): Promise<VerificationSummaryDto[]> {
    return (await this.verifications.list(query)).map(toVerificationSummaryDto);
  }

  @Get('submissions/:submission_id/replay.log')
  @Admin()
  @ApiProduces('text/plain')
  @ApiOperation({ summary: "The replay log of a submission's latest verification", description: 'Admin only.' })
  @ApiOkResponse({ description: 'The log text.', schema: { type: 'string' } })
  @ApiErrors(ErrorCode.SubmissionNotFound, ErrorCode.ReplayLogNotFound, ErrorCode.InvalidAdminToken, ErrorCode.AdminUnconfigured)
  @ApiUnprocessableEntityResponse(PATH_422)
  async replayLog(@Param('submission_id') submissionId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const log = await this.verifications.replayLog(submissionId);
    // Set on success only: a @Header() would also label the JSON error body of a 404 as text.
    void reply.type('text/plain; charset=utf-8');
    return log;
  }
}
