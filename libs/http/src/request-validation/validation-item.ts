import type { ValidationErrorItem } from '@rcs/contracts';

export type ValidationLoc = (string | number)[];

/** One 422 item, FastAPI/pydantic-shaped; `input` and `ctx` are left out when undefined. */
export function validationItem(
  type: string,
  loc: ValidationLoc,
  msg: string,
  input?: unknown,
  ctx?: Record<string, unknown>,
): ValidationErrorItem {
  const item: ValidationErrorItem = { type, loc, msg };
  if (input !== undefined) item.input = input;
  if (ctx !== undefined) item.ctx = ctx;
  return item;
}

export function missingItem(loc: ValidationLoc): ValidationErrorItem {
  return validationItem('missing', loc, 'Field required');
}

/** A number that is not finite (NaN, ±Infinity: a JSON `1e309`). */
export function finiteNumberItem(loc: ValidationLoc, input: unknown): ValidationErrorItem {
  return validationItem('finite_number', loc, 'Input should be a finite number', input);
}

export function extraForbiddenItem(loc: ValidationLoc, input: unknown): ValidationErrorItem {
  return validationItem('extra_forbidden', loc, 'Extra inputs are not permitted', input);
}

/** A request part that must be a JSON object but is not. */
export function modelAttributesTypeItem(loc: ValidationLoc, input: unknown): ValidationErrorItem {
  return validationItem('model_attributes_type', loc, 'Input should be a valid dictionary or object', input);
}

/** A nested value that must be an object but is not. */
export function modelTypeItem(loc: ValidationLoc, input: unknown): ValidationErrorItem {
  return validationItem('model_type', loc, 'Input should be a valid dictionary or object', input);
}
