import { ArgumentMetadata, Paramtype, ValidationPipe } from '@nestjs/common';
import { ApiValidationError, ValidationErrorItem } from '@rcs/contracts';
import type { ValidationError } from 'class-validator';
import { validationErrorsToItems } from './validation-errors';
import { reservedKeyItems } from './reserved-keys';
import { modelAttributesTypeItem, validationItem, ValidationLoc } from './validation-item';

/** The part of the request a DTO comes from, as FastAPI names it in `loc`. */
export type RequestLocation = 'body' | 'query' | 'path';

const LOCATIONS: Partial<Record<Paramtype, RequestLocation>> = { body: 'body', query: 'query', param: 'path' };

/** Carries class-validator's errors from the exception factory back to `transform`, which knows the request part. */
class ValidationFailed extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

const OWN_PIPE_MODELS = new WeakSet<object>();

/**
 * Marks `model` as validated by a pipe of its own route parameter (`@Query(new ItsPipe(model))`), which
 * the global pipe then leaves alone: the parameter stays a plain `@Query()`, so OpenAPI lists the model's fields.
 */
export function validatedByOwnPipe(model: object): void {
  OWN_PIPE_MODELS.add(model);
}

/**
 * Nest's ValidationPipe with the 422 contract of DECISIONS §1: unknown properties are refused at every
 * level, defaults and query coercion are applied, and failures throw `ApiValidationError` with one
 * pydantic-shaped item per violation, `loc` starting with `body`, `query` or `path`.
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new ValidationFailed(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A model its route validates with its own parameter pipe (the pool's lenient models) is left to that pipe.
    if (metadata.metatype && OWN_PIPE_MODELS.has(metadata.metatype)) return value;
    const location = LOCATIONS[metadata.type];
    if (!location || !this.toValidate(metadata)) return super.transform(value, metadata);
    const root: ValidationLoc = metadata.data ? [location, metadata.data] : [location];
    // null/undefined become {} in Nest's pipe, so absent required fields are reported one by one.
    if (value !== null && value !== undefined && !isJsonObject(value)) {
      throw new ApiValidationError([modelAttributesTypeItem(root, value)]);
    }
    const textItems = [...reservedKeyItems(value, root), ...unstorableTextItems(value, root)];
    try {
      const transformed: unknown = await super.transform(value, metadata);
      if (textItems.length > 0) throw new ApiValidationError(textItems);
      return transformed;
    } catch (error) {
      if (error instanceof ValidationFailed) {
        throw new ApiValidationError([...validationErrorsToItems(error.errors, metadata.metatype, root), ...textItems]);
      }
      throw error;
    }
  }
}

export function createValidationPipe(): ApiValidationPipe {
  return new ApiValidationPipe();
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer);
}

// Lone UTF-16 surrogates cannot be encoded as UTF-8: jsonb refuses them and text would store U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What Postgres cannot store (U+0000, lone surrogates) is refused here, once for every route. */
function unstorableTextItems(value: unknown, loc: ValidationLoc): ValidationErrorItem[] {
  if (typeof value === 'string') return unstorableStringItems(value, loc, 'String');
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableTextItems(item, [...loc, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => {
      const keyItems = unstorableStringItems(key, [...loc, key], 'Key');
      return keyItems.length > 0 ? keyItems : unstorableTextItems(item, [...loc, key]);
    });
  }
  return [];
}

function unstorableStringItems(text: string, loc: ValidationLoc, what: 'String' | 'Key'): ValidationErrorItem[] {
  if (text.includes('\u0000')) return [validationItem('string_nul_character', loc, `${what} should not contain the NUL character (\\u0000)`)];
  if (LONE_SURROGATE.test(text)) return [validationItem('string_unicode', loc, `${what} should be valid Unicode (no unpaired surrogate)`)];
  return [];
}
