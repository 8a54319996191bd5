import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode } from './error-code';
import { ApiText } from '../common/api-fields';

/** `detail` of every non-422 error: a code, a sentence, and context fields next to them. */
export class ErrorDetailContentDto {
  @ApiProperty({ description: 'Machine-readable code.', enum: ErrorCode, enumName: 'ErrorCode' })
  error!: ErrorCode;

  @ApiText('Human sentence.')
  message!: string;
}

/** Body of every error but 422 (DECISIONS §1). */
export class ErrorDetailDto {
  @ApiProperty({ description: 'The error; may carry context fields next to `error` and `message`.', type: () => ErrorDetailContentDto })
  detail!: ErrorDetailContentDto;
}

/** One violation, FastAPI/pydantic-shaped. */
export class ValidationErrorItemDto {
  @ApiText('Violation type, e.g. `missing`, `string_too_long`, `extra_forbidden`.')
  type!: string;

  @ApiProperty({
    description: 'Where: `body`, `query` or `path`, then property names and array indices.',
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    example: ['body', 'pools', 0, 'pool_id'],
  })
  loc!: (string | number)[];

  @ApiText('Human sentence.')
  msg!: string;

  @ApiPropertyOptional({
    description: 'The offending value, any JSON (absent for a missing field).',
    nullable: true,
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object' }, { type: 'array', items: {} }],
  })
  input?: unknown;

  @ApiPropertyOptional({ description: 'Bounds of the violated rule, e.g. `{"max_length": 120}`.', type: 'object', additionalProperties: true })
  ctx?: Record<string, unknown>;
}

/** Body of a 422 (DECISIONS §1). */
export class ValidationErrorDto {
  @ApiProperty({ description: 'One item per violation.', type: () => [ValidationErrorItemDto] })
  detail!: ValidationErrorItemDto[];
}
