import type { ValidationErrorItem } from '@rcs/contracts';
import { validationItem, ValidationLoc } from './validation-item';

/**
 * Keys every JavaScript object already has (`__proto__`, `constructor`, `toString`, … and `prototype`).
 * class-transformer skips them when it builds a request model, so a body carrying one would lose it
 * silently: a property would vanish instead of being refused, an entry of a record (an env name) would
 * vanish from the data. No request model declares such a property, so the pipe refuses them wherever
 * they appear.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** One `extra_forbidden` item per reserved key anywhere in `value` (walked without recursion). */
export function reservedKeyItems(value: unknown, root: ValidationLoc): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  const pending: [unknown, ValidationLoc][] = [[value, root]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, loc] = next;
    if (Array.isArray(node)) {
      node.forEach((item, index) => pending.push([item, [...loc, index]]));
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        if (RESERVED_KEYS.has(key)) {
          items.push(validationItem('extra_forbidden', [...loc, key], `Extra inputs are not permitted: "${key}" is a reserved name`, item));
        } else {
          pending.push([item, [...loc, key]]);
        }
      }
    }
  }
  return items;
}
