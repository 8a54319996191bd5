import { Body, Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Admin, CurrentAuth, HotkeyPrincipal } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ErrorCode, VerificationQueryDto, VerificationSummaryDto, VerifyDto } from '@rcs/contracts';
import { toVerificationSummaryDto } from './verification.mapper';
import { VerificationsService } from './verifications.service';
import { PublicListRoute } from '../common/list-route';
import { ValidatorResultRoute } from './validator-result-route';

const PATH_INVALID = 'Path parameter fails validation.';

@ApiTags('verifications')
@Controller('api/v1')
export class VerificationsController {
  constructor(private readonly verifications: VerificationsService) {}

  @ValidatorResultRoute('submissions/:submission_id/verify', 'Body fails validation; `missing` or `finite_number` for the task metric of an accepted result.', ErrorCode.SubmissionNotFound, ErrorCode.VerifyNotAllowedForPeerEvaluation, ErrorCode.SubmissionAlreadyDecided)
  @ApiOperation({ summary: 'Manually verify a pending submission', description: "An allowlisted validator's observed result outside the lease flow; it completes the submission's job whatever its lease state. Refused for peer_evaluation tasks." })
  async verify(@CurrentAuth() validator: HotkeyPrincipal, @Param('submission_id') submissionId: string, @Body() body: VerifyDto): Promise<VerificationSummaryDto> {
    return toVerificationSummaryDto(await this.verifications.verify(validator.hotkey, submissionId, body), 'validator');
  }

  @PublicListRoute('verifications', VerificationSummaryDto, 'Query fails validation (status, limit 1..1000, offset >= 0).')
  @ApiOperation({ summary: 'List verifications, newest first', description: 'Summaries without replay logs; filtered by submission and verdict, paged.' })
  async list(@Query() query: VerificationQueryDto): Promise<VerificationSummaryDto[]> {
    return (await this.verifications.list(query)).map((verification) => toVerificationSummaryDto(verification));
  }

  @Get('submissions/:submission_id/replay.log')
  @Admin()
  @ApiProduces('text/plain')
  @ApiOperation({ summary: "The replay log of a submission's latest verification", description: 'Admin only.' })
  @ApiOkResponse({ description: 'The log text.', schema: { type: 'string' } })
  @ApiErrors(ErrorCode.SubmissionNotFound, ErrorCode.ReplayLogNotFound, ErrorCode.InvalidAdminToken, ErrorCode.AdminUnconfigured)
  @ApiValidationFailure(PATH_INVALID)
  async replayLog(@Param('submission_id') submissionId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const log = await this.verifications.replayLog(submissionId);
    // Set on success only: a @Header() would also label the JSON error body of a 404 as text.
    void reply.type('text/plain; charset=utf-8');
    return log;
  }
}
