import { DECORATORS } from '@nestjs/swagger';
import { MetricDirection, RankingMode } from '../enums';
import { ApiEnum, ApiEnumOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';

/**
 * A task's metric fields, declared once for the DTOs that carry them (TaskDto, ReplaySpecDto): a DTO
 * extends this class, and `@MetricFieldsAfter` puts the fields where its schema lists them.
 */
export abstract class TaskMetricFieldsDto {
  @ApiText('Primary metric key.')
  metric_name!: string;

  @ApiEnum(MetricDirection, 'Direction of the primary metric.')
  metric_direction!: MetricDirection;

  @ApiEnum(RankingMode, 'Ranking mode.')
  ranking_mode!: RankingMode;

  @ApiTextOrNull('Secondary metric key.')
  secondary_metric_name!: string | null;

  @ApiEnumOrNull(MetricDirection, 'Direction of the secondary metric.')
  secondary_metric_direction!: MetricDirection | null;
}

/** `@MetricFieldsAfter` named a property its DTO does not document. */
export class MetricFieldsAnchorError extends Error {
  constructor(readonly dto: string, readonly anchor: string) {
    super(`${dto} documents no property ${anchor} to list the metric fields after`);
    this.name = 'MetricFieldsAnchorError';
  }
}

/** Swagger keeps a DTO's documented properties, in order, as `:name` keys (inherited ones first). */
const METRIC_KEYS: readonly string[] = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, TaskMetricFieldsDto.prototype) as string[];

/**
 * Lists the inherited metric fields right after `anchor` in the DTO's schema (its properties and
 * `required`) rather than first, so the document keeps the order it has always had.
 */
export function MetricFieldsAfter(anchor: string): ClassDecorator {
  return (dto) => {
    const keys = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[]).filter((key) => !METRIC_KEYS.includes(key));
    const at = keys.indexOf(`:${anchor}`);
    if (at < 0) throw new MetricFieldsAnchorError(dto.name, anchor);
    keys.splice(at + 1, 0, ...METRIC_KEYS);
    Reflect.defineMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, keys, dto.prototype);
  };
}
