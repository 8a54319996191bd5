import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, HotkeyPrincipal, PoolSigned, PoolValidator, Public } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ErrorCode, PoolResultDto, ResultsQueryDto, ResultVerifiedDto, SIGNATURE_ERRORS, SotaDto, SotaQueryDto } from '@rcs/contracts';
import { IgnoredPoolBody, PoolQuery } from '../common/pool-model.pipe';
import { ResultsService } from './results.service';


/** Pool results and the state of the art (spec 001 "Pool results"; DECISIONS.md §11). */
@ApiTags('pool results')
@Controller('api/v1/results')
export class ResultsController {
  constructor(private readonly results: ResultsService) {}

  @Get()
  @PoolSigned()
  @ApiOperation({ summary: 'Verified results (or pending ones, for validators), newest first' })
  @ApiOkResponse({ type: [PoolResultDto], description: 'Results.' })
  @ApiErrors([ErrorCode.ValidatorNotAllowlisted, 'status=pending by a non-validator'], ...SIGNATURE_ERRORS)
  @ApiValidationFailure('Query out of bounds.')
  list(@CurrentAuth() who: HotkeyPrincipal, @PoolQuery(ResultsQueryDto) query: ResultsQueryDto): Promise<PoolResultDto[]> {
    return this.results.list(who.hotkey, query);
  }

  @Get('sota')
  @Public()
  @ApiErrors()
  @ApiOperation({ summary: 'Current SOTA threshold of a task type (public)' })
  @ApiOkResponse({ type: SotaDto, description: 'The threshold.' })
  @ApiValidationFailure('task_type not `[a-z0-9_]{1,64}`.')
  sota(@PoolQuery(SotaQueryDto) query: SotaQueryDto): Promise<SotaDto> {
    return this.results.sota(query.task_type);
  }

  @Post('verify/:result_id')
  @HttpCode(200)
  @PoolValidator()
  @ApiOperation({ summary: 'Verify a result (allowlisted validators)', description: 'Raises the threshold to the result’s score when higher; idempotent.' })
  @ApiOkResponse({ type: ResultVerifiedDto, description: 'Verified.' })
  @ApiErrors(ErrorCode.ValidatorNotAllowlisted, ErrorCode.ResultNotFound, ErrorCode.ValidatorAllowlistUnconfigured, ...SIGNATURE_ERRORS)
  verify(@CurrentAuth() validator: HotkeyPrincipal, @Param('result_id') resultId: string, @IgnoredPoolBody() _body: undefined): Promise<ResultVerifiedDto> {
    return this.results.verify(validator.hotkey, resultId);
  }
}
