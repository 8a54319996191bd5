import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEnum, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Length, Max, MaxLength, Min, MinLength } from 'class-validator';
import { VERDICT_STATUSES } from '../enums';
import { enumName } from './api-fields';
import { IsMetricRecord, MaxProperties } from './validators';

/**
 * Composed declarations of the fields requests repeat: each documents the field and sets its
 * class-validator bounds from the same numbers, so the two cannot drift apart.
 */

/** The decorators as if written one above the other in this order (TypeScript applies the lowest first). */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...[...decorators].reverse());
}

/** A string of `minLength`..`maxLength` characters (at least `minLength` when there is no upper bound). */
export function BoundedText(description: string, minLength: number, maxLength?: number): PropertyDecorator {
  if (maxLength === undefined) {
    return stacked(ApiProperty({ type: String, description, minLength }), IsString(), MinLength(minLength));
  }
  return stacked(ApiProperty({ type: String, description, minLength, maxLength }), IsString(), Length(minLength, maxLength));
}

/** A string that may be absent or null (default null), at most `maxLength` characters when given. */
export function OptionalText(description: string, maxLength?: number): PropertyDecorator {
  if (maxLength === undefined) {
    return stacked(ApiPropertyOptional({ description, type: String, nullable: true, default: null }), IsOptional(), IsString());
  }
  return stacked(
    ApiPropertyOptional({ description, type: String, nullable: true, maxLength, default: null }),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
  );
}

/** A count that may be absent or null (default null): an integer of 0 or more. */
export function OptionalCount(description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ description, type: 'integer', nullable: true, minimum: 0, default: null }),
    IsOptional(),
    IsInt(),
    Min(0),
    Max(Number.MAX_SAFE_INTEGER),
  );
}

/** A wire enumeration of `enums.ts` that takes `fallback` when absent. */
export function EnumOrDefault<T extends string>(values: Record<string, T>, fallback: T, description: string): PropertyDecorator {
  return stacked(ApiPropertyOptional({ description, enum: values, enumName: enumName(values), default: fallback }), IsEnum(values));
}

/** A list query's optional filter on a text column. */
export function FilterText(description: string): PropertyDecorator {
  return stacked(ApiPropertyOptional({ type: String, description }), IsOptional(), IsString());
}

/** A list query's optional filter on a wire enumeration of `enums.ts`. */
export function FilterEnum(values: object, description: string): PropertyDecorator {
  return stacked(ApiPropertyOptional({ description, enum: values, enumName: enumName(values) }), IsOptional(), IsEnum(values));
}

/** Most per-item values one result may carry: 20,000 numbers stay well inside a request body. */
export const MAX_PER_ITEM = 20_000;

/** Per-item values of a replay's task metric, in the held-out data's order: finite numbers, optional (default null). */
export function PerItemField(description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ description, type: 'array', items: { type: 'number' }, maxItems: MAX_PER_ITEM, nullable: true, default: null }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_PER_ITEM),
    IsNumber({ allowNaN: false, allowInfinity: false }, { each: true }),
  );
}

/** Most metrics one object may carry. */
export const MAX_METRICS = 64;

/** Metrics a miner, validator or peer observed: names of 1..120 characters, finite numbers (default `{}`). */
export function MetricsField(description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ description, type: 'object', additionalProperties: { type: 'number' }, maxProperties: MAX_METRICS, default: {} }),
    IsObject(),
    MaxProperties(MAX_METRICS),
    IsMetricRecord(),
  );
}

/** The verdict a validator or peer evaluator posts: one of `VERDICT_STATUSES`. */
export function VerdictField(description: string): PropertyDecorator {
  return stacked(ApiProperty({ description, enum: [...VERDICT_STATUSES], enumName: 'VerdictStatus' }), IsIn(VERDICT_STATUSES));
}
