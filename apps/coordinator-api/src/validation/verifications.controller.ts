import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Admin, AuthPrincipal, CurrentAuth, Validator } from '@rcs/auth';
import { ErrorDetailDto, ValidationErrorDto, VerificationQueryDto, VerificationSummaryDto, VerifyDto } from '@rcs/contracts';
import { VALIDATOR_FORBIDDEN, VALIDATOR_UNAUTHORIZED, VALIDATOR_UNAVAILABLE } from './validator.controller';
import { toVerificationSummaryDto } from './verification.mapper';
import { VerificationsService } from './verifications.service';

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
  @ApiNotFoundResponse({ type: ErrorDetailDto, description: '`submission_not_found`.' })
  @ApiConflictResponse({ type: ErrorDetailDto, description: '`verify_not_allowed_for_peer_evaluation` or `submission_already_decided`.' })
  @ApiUnauthorizedResponse(VALIDATOR_UNAUTHORIZED)
  @ApiForbiddenResponse(VALIDATOR_FORBIDDEN)
  @ApiServiceUnavailableResponse(VALIDATOR_UNAVAILABLE)
  async verify(
    @CurrentAuth() validator: ValidatorPrincipal,
    @Param('submission_id') submissionId: string,
    @Body() body: VerifyDto,
  ): Promise<VerificationSummaryDto> {
    return toVerificationSummaryDto(await this.verifications.verify(validator.hotkey, submissionId, body));
  }

  @Get('verifications')
  @ApiOperation({ summary: 'List verifications, newest first', description: 'Summaries without replay logs; filtered by submission and verdict, paged.' })
  @ApiOkResponse({ type: [VerificationSummaryDto], description: 'Newest first (created_at, then id).' })
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Query fails validation (status, limit 1..1000, offset >= 0).' })
  async list(@Query() query: VerificationQueryDto): Promise<VerificationSummaryDto[]> {
    return (await this.verifications.list(query)).map(toVerificationSummaryDto);
  }

  @Get('submissions/:submission_id/replay.log')
  @Admin()
  @ApiProduces('text/plain')
  @ApiOperation({ summary: "The replay log of a submission's latest verification", description: 'Admin only.' })
  @ApiOkResponse({ description: 'The log text.', schema: { type: 'string' } })
  @ApiNotFoundResponse({ type: ErrorDetailDto, description: '`submission_not_found`, or `replay_log_not_found` before a verification with a log.' })
  @ApiUnauthorizedResponse({ type: ErrorDetailDto, description: '`invalid_admin_token`.' })
  @ApiServiceUnavailableResponse({ type: ErrorDetailDto, description: '`admin_unconfigured`.' })
  @ApiUnprocessableEntityResponse(PATH_422)
  async replayLog(@Param('submission_id') submissionId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const log = await this.verifications.replayLog(submissionId);
    // Set on success only: a @Header() would also label the JSON error body of a 404 as text.
    void reply.type('text/plain; charset=utf-8');
    return log;
  }
}
