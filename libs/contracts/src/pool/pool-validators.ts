import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { stacked } from '../common/request-fields';

/** A benchmark name of pool mining (DECISIONS.md §11): `[a-z0-9_]{1,64}`. */
export const POOL_TASK_TYPE_PATTERN = /^[a-z0-9_]{1,64}$/;
/** The task type when a request names none (`POOL_DEFAULT_TASK_TYPE`'s default). */
export const DEFAULT_POOL_TASK_TYPE = 'cifar10_binary';
/** Largest algorithm DSL, in UTF-8 bytes. */
export const MAX_ALGORITHM_DSL_BYTES = 64 * 1024;
/** Most entries of any list a pool request carries. */
export const MAX_POOL_LIST_ITEMS = 64;

/** At most `max` bytes once encoded as UTF-8 (MaxLength counts UTF-16 units). */
export function MaxUtf8Bytes(max: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyKey) => {
    registerDecorator({
      name: 'maxUtf8Bytes',
      target: target.constructor,
      propertyName: String(propertyKey),
      options,
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || Buffer.byteLength(value, 'utf8') <= max,
        defaultMessage: (args: ValidationArguments) => `${args.property} must be at most ${max} bytes of UTF-8`,
      },
    });
  };
}

/** A positive integer id, or an object carrying one as `id` (BitSota clients send either). */
export function parentIdOf(value: unknown): number | null {
  const id = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/** Every item is a positive integer or `{id: positive integer, …}`. */
export function IsParentRefs(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyKey) => {
    registerDecorator({
      name: 'isParentRefs',
      target: target.constructor,
      propertyName: String(propertyKey),
      options,
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || value.every((item) => parentIdOf(item) !== null),
        defaultMessage: (args: ValidationArguments) => `${args.property} items must be algorithm ids or objects with an integer id`,
      },
    });
  };
}

/** A benchmark name, `[a-z0-9_]{1,64}`; absent means the default one. */
export function OptionalTaskType(description: string): PropertyDecorator {
  return stacked(ApiPropertyOptional({ type: String, description, pattern: POOL_TASK_TYPE_PATTERN.source }), IsOptional(), IsString(), Matches(POOL_TASK_TYPE_PATTERN));
}
