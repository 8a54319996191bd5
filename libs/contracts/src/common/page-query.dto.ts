import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { stacked } from './request-fields';
import { ToNumber } from './transforms';

export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 100;

/** A page size of 1..MAX_PAGE_LIMIT rows (DEFAULT_PAGE_LIMIT when absent), read from the query string. */
export function PageLimit(description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ description, type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT }),
    ToNumber(),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_LIMIT),
  );
}

/** `limit` and `offset` of every list route (DECISIONS.md §5: newest first, paged). */
export class PageQueryDto {
  @PageLimit('Page size.')
  limit: number = DEFAULT_PAGE_LIMIT;

  @ApiPropertyOptional({ description: 'Rows to skip.', type: 'integer', minimum: 0, default: 0 })
  @ToNumber()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  offset = 0;
}
