import { Body, createParamDecorator, Query, type ExecutionContext, type PipeTransform, type Type } from '@nestjs/common';
import { ApiValidationError, type ValidationErrorItem } from '@rcs/contracts';
import { modelAttributesTypeItem, reservedKeyItems, validatedByOwnPipe, validationErrorsToItems, validationItem, type ValidationLoc } from '@rcs/http';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { FastifyRequest } from 'fastify';

/**
 * Validates a pool request model: known fields keep their bounds (422 in the DECISIONS §1 shape), unknown
 * properties are dropped instead of refused (DECISIONS.md §2 Pool, compat with BitSota's clients), except
 * names of `Object.prototype` members, refused wherever they appear (§1 `extra_forbidden`, as on the
 * coordinator: class-transformer would drop them silently). The global pipe leaves custom parameter
 * decorators and models marked `validatedByOwnPipe` alone, so this is the only validation they get.
 */
export class PoolModelPipe<T extends object> implements PipeTransform<unknown, Promise<T>> {
  constructor(
    private readonly metatype: Type<T>,
    private readonly location: 'body' | 'query',
  ) {}

  async transform(value: unknown): Promise<T> {
    const root: ValidationLoc = [this.location];
    const plain = value === null || value === undefined ? {} : value;
    if (typeof plain !== 'object' || Array.isArray(plain)) throw new ApiValidationError([modelAttributesTypeItem(root, value)]);
    const reserved = reservedKeyItems(plain, root);
    const instance = plainToInstance(this.metatype, { ...plain });
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: false,
      forbidUnknownValues: true,
      validationError: { target: false, value: true },
    });
    const items = [...reserved, ...validationErrorsToItems(errors, this.metatype, root), ...unstorableText(instance, root)];
    if (items.length > 0) throw new ApiValidationError(items);
    return instance;
  }
}

// What Postgres text cannot hold: U+0000 and lone surrogates (checked on the known fields only).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unstorableText(value: unknown, loc: ValidationLoc): ValidationErrorItem[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return [validationItem('string_nul_character', loc, 'String should not contain the NUL character (\\u0000)')];
    if (LONE_SURROGATE.test(value)) return [validationItem('string_unicode', loc, 'String should be valid Unicode (no unpaired surrogate)')];
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableText(item, [...loc, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => unstorableText(item, [...loc, key]));
  }
  return [];
}

/** A body the route ignores (compat: clients send one anyway): only names of `Object.prototype` members are refused. */
export class IgnoredBodyPipe implements PipeTransform<unknown, undefined> {
  transform(value: unknown): undefined {
    const items = reservedKeyItems(value, ['body']);
    if (items.length > 0) throw new ApiValidationError(items);
    return undefined;
  }
}

const requestBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => context.switchToHttp().getRequest<FastifyRequest>().body);

/**
 * The request body as a pool model `dto` (unknown properties ignored): Nest's `@Body()` with the pool's pipe,
 * so the OpenAPI document shows the model as the coordinator's bodies do. A body clients may omit adds
 * `@ApiBody({ type: dto, required: false })`.
 */
export function PoolBody<T extends object>(dto: Type<T>): ParameterDecorator {
  validatedByOwnPipe(dto);
  return Body(new PoolModelPipe(dto, 'body'));
}

/**
 * The query string as a pool model `dto` (unknown parameters ignored): Nest's `@Query()` with the pool's
 * pipe, so the OpenAPI document lists the model's fields as the coordinator's queries do.
 */
export function PoolQuery<T extends object>(dto: Type<T>): ParameterDecorator {
  validatedByOwnPipe(dto);
  return Query(new PoolModelPipe(dto, 'query'));
}

/** The body of a route that ignores it: checked for reserved names only (see `IgnoredBodyPipe`). */
export function IgnoredPoolBody(): ParameterDecorator {
  return requestBody(new IgnoredBodyPipe());
}
