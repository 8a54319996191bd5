import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, HotkeyPrincipal, Public, StakeGated } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ErrorCode, PeerConsensusDto, PeerEvaluateDto, PeerEvaluationDto, PeerEvaluationQueryDto, SIGNATURE_ERRORS } from '@rcs/contracts';
import { toPeerEvaluationDto } from './peer-evaluation.mapper';
import { PeerEvaluationService } from './peer-evaluation.service';
import { PublicListRoute } from '../common/list-route';

const SUBMISSION_ID = { name: 'submission_id', description: 'Submission id (uuid); anything else is 404 `submission_not_found`.' };

@ApiTags('peer-evaluation')
@Controller('api/v1')
export class PeerEvaluationController {
  constructor(private readonly peerEvaluation: PeerEvaluationService) {}

  @Post('submissions/:submission_id/peer-evaluate')
  @HttpCode(200)
  @StakeGated()
  @ApiOperation({
    summary: "Evaluate another miner's pending submission (peer_evaluation tasks)",
    description:
      'Any staked miner whose owner coldkey differs from the submitter\'s, once per owner per submission (another hotkey of ' +
      'an owner that already evaluated it: 409 already_evaluated_by_owner; a hotkey of the submitter\'s owner: 403 own_submission). `accepted` must report the task metric as a finite number in ' +
      'observed_metrics. The evaluation that brings the accepted, rejected or error count to the task\'s min_peer_evaluations ' +
      'decides the submission (accepted with the median of the accepted metric values) and, when accepted, updates the best ' +
      'result. Paused and closed tasks still take evaluations of pending submissions.',
  })
  @ApiParam(SUBMISSION_ID)
  @ApiOkResponse({ type: PeerEvaluationDto, description: 'The stored evaluation.' })
  @ApiValidationFailure('Body bounds or unknown properties; `accepted` without a finite task metric (loc body.observed_metrics.<metric_name>); NUL or unpaired surrogates in any string.')
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.InsufficientMinerStake, ErrorCode.CannotEvaluateOwnSubmission, ErrorCode.OwnSubmission, ErrorCode.SubmissionNotFound, ErrorCode.PeerEvaluationNotAllowed, ErrorCode.SubmissionAlreadyDecided, ErrorCode.DuplicatePeerEvaluation, ErrorCode.AlreadyEvaluatedByOwner, [ErrorCode.ChainUnavailable, 'the stake gate or the owner lookup cannot reach the chain'])
  async evaluate(
    @CurrentAuth() evaluator: HotkeyPrincipal,
    @Param('submission_id') submissionId: string,
    @Body() body: PeerEvaluateDto,
  ): Promise<PeerEvaluationDto> {
    return toPeerEvaluationDto(await this.peerEvaluation.evaluate(evaluator.hotkey, submissionId, body));
  }

  @Get('submissions/:submission_id/peer-consensus')
  @Public()
  @ApiOperation({
    summary: 'The peer consensus of a submission',
    description:
      'Public. `pending` until a count reaches the threshold (min_peer_evaluations), then the decided status; ' +
      'consensus_metric_value is the median of the accepted values once accepted, null otherwise.',
  })
  @ApiParam(SUBMISSION_ID)
  @ApiOkResponse({ type: PeerConsensusDto, description: 'Counts, status and consensus metric.' })
  @ApiErrors(ErrorCode.SubmissionNotFound, [ErrorCode.PeerEvaluationNotAllowed, 'the submission is not on a peer_evaluation task'])
  consensus(@Param('submission_id') submissionId: string): Promise<PeerConsensusDto> {
    return this.peerEvaluation.consensus(submissionId);
  }

  @PublicListRoute('peer-evaluations', PeerEvaluationDto, 'Query fails validation (status, limit 1..1000, offset >= 0, unknown parameters).')
  @ApiOperation({ summary: 'List peer evaluations, newest first', description: 'Public; filtered by submission, evaluator and verdict, paged.' })
  async list(@Query() query: PeerEvaluationQueryDto): Promise<PeerEvaluationDto[]> {
    return (await this.peerEvaluation.list(query)).map(toPeerEvaluationDto);
  }
}
