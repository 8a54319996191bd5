import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { CurrentAuth, HotkeyPrincipal, PoolSigned, PoolValidator, Public } from '@rcs/auth';
import { ApiErrors, ErrorCode, PoolResultDto, ResultsQueryDto, ResultVerifiedDto, SIGNATURE_ERRORS, SotaDto, SotaQueryDto, ValidationErrorDto } from '@rcs/contracts';
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
  @ApiQuery({ name: 'limit', required: false, type: 'integer', description: '1..1000, default 100' })
  @ApiQuery({ name: 'task_type', required: false, type: String, description: 'Only this task type' })
  @ApiQuery({ name: 'min_score', required: false, type: Number, description: 'Only scores at least this' })
  @ApiQuery({ name: 'status', required: false, enum: ['verified', 'pending'], description: '`pending` for validators only' })
  @ApiOkResponse({ type: [PoolResultDto], description: 'Results.' })
  @ApiErrors([ErrorCode.ValidatorNotAllowlisted, 'status=pending by a non-validator'], ...SIGNATURE_ERRORS)
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Query out of bounds.' })
  list(@CurrentAuth() who: HotkeyPrincipal, @PoolQuery(ResultsQueryDto) query: ResultsQueryDto): Promise<PoolResultDto[]> {
    return this.results.list(who.hotkey, query);
  }

  @Get('sota')
  @Public()
  @ApiErrors()
  @ApiOperation({ summary: 'Current SOTA threshold of a task type (public)' })
  @ApiQuery({ name: 'task_type', required: false, type: String, description: 'Default POOL_DEFAULT_TASK_TYPE (cifar10_binary)' })
  @ApiOkResponse({ type: SotaDto, description: 'The threshold.' })
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'task_type not `[a-z0-9_]{1,64}`.' })
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
