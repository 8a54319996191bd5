import { ContractConstraint, isRecord, nestedRecordErrors } from '@rcs/contracts';
import type { ValidationErrorItem } from '@rcs/contracts';
import { getMetadataStorage, ValidationError, ValidationTypes } from 'class-validator';
import {
  ABSENCE_AWARE_CONSTRAINTS,
  byPriority,
  describeViolation,
  TYPE_CONSTRAINTS,
  Violation,
  WHITELIST_CONSTRAINT,
} from './constraint-rules';
import { extraForbiddenItem, missingItem, modelTypeItem, ValidationLoc } from './validation-item';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/**
 * Turns class-validator errors into 422 items: one per violated leaf, `loc` = `root` + property path
 * (array indices as numbers). `metatype` is the validated class, whose rule arguments give `ctx`.
 */
export function validationErrorsToItems(errors: ValidationError[], metatype: unknown, root: ValidationLoc = []): ValidationErrorItem[] {
  // One item per loc: the first is the most specific (rules run in priority order, before nested items).
  const byLoc = new Map<string, ValidationErrorItem>();
  for (const item of flatten(errors, root, metatype, false)) {
    const key = JSON.stringify(item.loc);
    if (!byLoc.has(key)) byLoc.set(key, item);
  }
  return [...byLoc.values()];
}

function flatten(errors: ValidationError[], loc: ValidationLoc, ownerClass: unknown, ownerIsArray: boolean): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  for (const error of errors) {
    // forbidUnknownValues: the object at `loc` has no rules at all (e.g. a nested value without @Type).
    if (error.property === undefined) {
      items.push(modelTypeItem(loc, undefined));
      continue;
    }
    const here = [...loc, ownerIsArray ? Number(error.property) : error.property];
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      items.push(...propertyItems(error, error.constraints, here, ownerClass));
    }
    if (error.children && error.children.length > 0) {
      items.push(...flatten(error.children, here, classOf(error.value), Array.isArray(error.value)));
    }
  }
  return items;
}

/** The items of one property: `missing` or `extra_forbidden` alone, else the most specific failure per loc. */
function propertyItems(
  error: ValidationError,
  constraints: Record<string, string>,
  loc: ValidationLoc,
  ownerClass: unknown,
): ValidationErrorItem[] {
  const names = Object.keys(constraints);
  if (names.includes(WHITELIST_CONSTRAINT)) return [extraForbiddenItem(loc, error.value)];
  if (error.value === undefined && names.some((name) => !ABSENCE_AWARE_CONSTRAINTS.has(name))) return [missingItem(loc)];

  // In priority order; of several items at one loc the caller keeps the first.
  const items: ValidationErrorItem[] = [];
  for (const name of byPriority(names)) {
    const produced =
      name === ContractConstraint.NestedRecord && isRecord(error.value)
        ? flatten(nestedRecordErrors(error.value), loc, undefined, false)
        : constraintItems(name, error, constraints[name] ?? '', loc, ownerClass);
    items.push(...produced);
    if (TYPE_CONSTRAINTS.has(name) && produced.some((item) => sameLoc(item.loc, loc))) break;
  }
  return items;
}

function constraintItems(name: string, error: ValidationError, message: string, loc: ValidationLoc, ownerClass: unknown): ValidationErrorItem[] {
  const metadata = findMetadata(ownerClass, error.property, name);
  const base: Violation = {
    value: error.value,
    loc,
    args: metadata?.constraints ?? [],
    message,
    nested: isNestedProperty(ownerClass, error.property),
  };
  // A rule with `each: true` failed on some items: report each failing item at its own index.
  if (metadata?.each && Array.isArray(error.value)) {
    const failures = failingIndexes(metadata, error.value);
    if (failures) {
      return failures.flatMap((index) => describeViolation(name, { ...base, value: (error.value as unknown[])[index], loc: [...loc, index] }));
    }
  }
  return describeViolation(name, base);
}

/** Indexes whose item fails the rule, or undefined when the rule cannot be re-run synchronously. */
function failingIndexes(metadata: ValidationMetadata, items: unknown[]): number[] | undefined {
  const constraint = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls)[0];
  if (!constraint) return undefined;
  const results = items.map((item) =>
    constraint.instance.validate(item, {
      value: item,
      constraints: metadata.constraints,
      targetName: '',
      object: {},
      property: metadata.propertyName,
    }),
  );
  if (!results.every((result) => typeof result === 'boolean')) return undefined;
  return results.flatMap((passed, index) => (passed ? [] : [index]));
}

function findMetadata(ownerClass: unknown, property: string, constraint: string): ValidationMetadata | undefined {
  return propertyMetadata(ownerClass, property).find((metadata) => constraintName(metadata) === constraint);
}

function isNestedProperty(ownerClass: unknown, property: string): boolean {
  return propertyMetadata(ownerClass, property).some((metadata) => metadata.type === ValidationTypes.NESTED_VALIDATION);
}

function propertyMetadata(ownerClass: unknown, property: string): ValidationMetadata[] {
  if (typeof ownerClass !== 'function') return [];
  return getMetadataStorage()
    .getTargetValidationMetadatas(ownerClass, '', true, false)
    .filter((metadata) => metadata.propertyName === property);
}

function constraintName(metadata: ValidationMetadata): string {
  if (metadata.name) return metadata.name;
  const constraint = metadata.constraintCls ? getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls)[0] : undefined;
  return constraint?.name ?? metadata.type;
}

function classOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? value.constructor : undefined;
}

function sameLoc(a: ValidationLoc, b: ValidationLoc): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index]);
}
