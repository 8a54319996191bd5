import {
  ContractConstraint,
  isRecord,
  METRIC_NAME_MAX_LENGTH,
  MetricEntryViolation,
  metricRecordViolations,
  NESTED_VALIDATION_CONSTRAINT,
  REPO_GLOB_MAX_LENGTH,
  RepoGlobViolation,
  repoGlobViolation,
} from '@rcs/contracts';
import type { ValidationErrorItem } from '@rcs/contracts';
import { finiteNumberItem, missingItem, modelTypeItem, validationItem, ValidationLoc } from './validation-item';

/** What a rule needs to describe one violation. */
export interface Violation {
  value: unknown;
  loc: ValidationLoc;
  /** The constraint's arguments (`@MaxLength(120)` → `[120]`). */
  args: readonly unknown[];
  /** class-validator's own message, used for unmapped constraints. */
  message: string;
  /** The property is validated as a nested object. */
  nested: boolean;
}

type Rule = (violation: Violation) => ValidationErrorItem[];

export const WHITELIST_CONSTRAINT = 'whitelistValidation';
export const UNKNOWN_VALUE_CONSTRAINT = 'unknownValue';

/** Type rules: once one fails at the property itself, the value rules behind it say nothing useful. */
const TYPE_CONSTRAINT_ORDER: readonly string[] = [
  UNKNOWN_VALUE_CONSTRAINT,
  NESTED_VALIDATION_CONSTRAINT,
  'isDefined',
  'isObject',
  'isArray',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isEnum',
  'isIn',
  ContractConstraint.StringRecord,
  ContractConstraint.NestedRecord,
];

export const TYPE_CONSTRAINTS: ReadonlySet<string> = new Set(TYPE_CONSTRAINT_ORDER);

/** Constraints reported first; among several failures on one property the earliest wins its loc. */
const PRIORITY: readonly string[] = [
  WHITELIST_CONSTRAINT,
  ...TYPE_CONSTRAINT_ORDER,
  'isNotEmpty',
  'isLength',
  'minLength',
  'maxLength',
  'min',
  'max',
  'isPositive',
  'matches',
  'arrayMinSize',
  'arrayMaxSize',
  ContractConstraint.MaxProperties,
  ContractConstraint.MetricRecord,
  ContractConstraint.RepoGlob,
  ContractConstraint.ExactlyOneOf,
];

/** Constraints that look at the whole object and so may fail while their own property is absent. */
export const ABSENCE_AWARE_CONSTRAINTS: ReadonlySet<string> = new Set([ContractConstraint.ExactlyOneOf]);

export function byPriority(names: string[]): string[] {
  const rank = (name: string): number => {
    const index = PRIORITY.indexOf(name);
    return index === -1 ? PRIORITY.length : index;
  };
  return [...names].sort((a, b) => rank(a) - rank(b));
}

export function describeViolation(constraint: string, violation: Violation): ValidationErrorItem[] {
  const rule = RULES[constraint] ?? valueError;
  return rule(violation);
}

const RULES: Record<string, Rule> = {
  [UNKNOWN_VALUE_CONSTRAINT]: ({ loc, value }) => [modelTypeItem(loc, value)],
  [NESTED_VALIDATION_CONSTRAINT]: ({ loc, value }) => [modelTypeItem(loc, value)],
  isDefined: ({ loc }) => [missingItem(loc)],
  isObject: ({ loc, value, nested }) => [nested ? modelTypeItem(loc, value) : dictType(loc, value)],
  isArray: ({ loc, value }) => [listType(loc, value)],
  isString: ({ loc, value }) => [stringType(loc, value)],
  isInt: ({ loc, value }) => [validationItem('int_type', loc, 'Input should be a valid integer', value)],
  // NaN and ±Infinity are numbers, just not finite ones: the type metric records answer too.
  isNumber: ({ loc, value }) => [
    typeof value === 'number' ? finiteNumberItem(loc, value) : validationItem('float_type', loc, 'Input should be a valid number', value),
  ],
  isBoolean: ({ loc, value }) => [validationItem('bool_type', loc, 'Input should be a valid boolean', value)],
  isEnum: ({ loc, value, args }) => [enumItem(loc, value, asArray(args[1]))],
  isIn: ({ loc, value, args }) => [enumItem(loc, value, asArray(args[0]))],
  [ContractConstraint.MetricRecord]: ({ loc, value }) =>
    metricRecordViolations(value).map(({ key, value: entry, violation }) => {
      switch (violation) {
        case MetricEntryViolation.NameEmpty:
          return stringTooShort([...loc, key, '[key]'], key, 1);
        case MetricEntryViolation.NameTooLong:
          return stringTooLong([...loc, key, '[key]'], key, METRIC_NAME_MAX_LENGTH);
        case MetricEntryViolation.NotFiniteNumber:
          return finiteNumberItem([...loc, key], entry);
      }
    }),
  isNotEmpty: (violation) =>
    typeof violation.value === 'string' ? [stringTooShort(violation.loc, violation.value, 1)] : valueError(violation),
  minLength: ({ loc, value, args }) =>
    [typeof value === 'string' ? stringTooShort(loc, value, Number(args[0])) : stringType(loc, value)],
  maxLength: ({ loc, value, args }) =>
    [typeof value === 'string' ? stringTooLong(loc, value, Number(args[0])) : stringType(loc, value)],
  isLength: ({ loc, value, args }) => {
    if (typeof value !== 'string') return [stringType(loc, value)];
    const min = Number(args[0]);
    return [value.length < min ? stringTooShort(loc, value, min) : stringTooLong(loc, value, Number(args[1]))];
  },
  min: ({ loc, value, args }) => [
    validationItem('greater_than_equal', loc, `Input should be greater than or equal to ${String(args[0])}`, value, { ge: args[0] }),
  ],
  max: ({ loc, value, args }) => [
    validationItem('less_than_equal', loc, `Input should be less than or equal to ${String(args[0])}`, value, { le: args[0] }),
  ],
  isPositive: ({ loc, value }) => [validationItem('greater_than', loc, 'Input should be greater than 0', value, { gt: 0 })],
  matches: ({ loc, value, args }) => {
    const pattern = args[0] instanceof RegExp ? args[0].source : String(args[0]);
    return [validationItem('string_pattern_mismatch', loc, `String should match pattern '${pattern}'`, value, { pattern })];
  },
  arrayMinSize: ({ loc, value, args }) =>
    [Array.isArray(value) ? tooShort(loc, value, 'List', Number(args[0]), value.length) : listType(loc, value)],
  arrayMaxSize: ({ loc, value, args }) =>
    [Array.isArray(value) ? tooLong(loc, value, 'List', Number(args[0]), value.length) : listType(loc, value)],
  [ContractConstraint.MaxProperties]: ({ loc, value, args }) =>
    isRecord(value) ? [tooLong(loc, value, 'Dictionary', Number(args[0]), Object.keys(value).length)] : [dictType(loc, value)],
  [ContractConstraint.StringRecord]: ({ loc, value }) =>
    isRecord(value)
      ? Object.entries(value)
          .filter(([, entry]) => typeof entry !== 'string')
          .map(([key, entry]) => stringType([...loc, key], entry))
      : [dictType(loc, value)],
  [ContractConstraint.NestedRecord]: ({ loc, value }) => [dictType(loc, value)],
  [ContractConstraint.RepoGlob]: ({ loc, value }) => repoGlobItems(loc, value),
  [ContractConstraint.ExactlyOneOf]: ({ loc, args }) => {
    const fields = asArray(args[0]).map(String);
    return [
      validationItem('exactly_one_required', loc.slice(0, -1), `Value error, exactly one of ${fields.join(', ')} must be set`, undefined, {
        fields,
      }),
    ];
  },
};

function repoGlobItems(loc: ValidationLoc, value: unknown): ValidationErrorItem[] {
  const violation = repoGlobViolation(value);
  switch (violation) {
    case null:
      return [];
    case RepoGlobViolation.NotString:
      return [stringType(loc, value)];
    case RepoGlobViolation.Empty:
      return [stringTooShort(loc, '', 1)];
    case RepoGlobViolation.TooLong:
      return [stringTooLong(loc, String(value), REPO_GLOB_MAX_LENGTH)];
    case RepoGlobViolation.Absolute:
      return [repoGlob(loc, value, violation, "must not start with '/'")];
    case RepoGlobViolation.ParentSegment:
      return [repoGlob(loc, value, violation, "must not contain a '..' segment")];
    case RepoGlobViolation.Backslash:
      return [repoGlob(loc, value, violation, 'must not contain a backslash')];
    case RepoGlobViolation.ControlCharacter:
      return [repoGlob(loc, value, violation, 'must not contain control characters')];
  }
}

function repoGlob(loc: ValidationLoc, value: unknown, reason: RepoGlobViolation, rule: string): ValidationErrorItem {
  return validationItem('repo_glob_invalid', loc, `Path pattern should be repository-relative: it ${rule}`, value, { reason });
}

function valueError({ loc, value, message }: Violation): ValidationErrorItem[] {
  return [validationItem('value_error', loc, `Value error, ${message}`, value)];
}

function stringType(loc: ValidationLoc, value: unknown): ValidationErrorItem {
  return validationItem('string_type', loc, 'Input should be a valid string', value);
}

function dictType(loc: ValidationLoc, value: unknown): ValidationErrorItem {
  return validationItem('dict_type', loc, 'Input should be a valid dictionary', value);
}

function listType(loc: ValidationLoc, value: unknown): ValidationErrorItem {
  return validationItem('list_type', loc, 'Input should be a valid list', value);
}

function stringTooShort(loc: ValidationLoc, value: string, min: number): ValidationErrorItem {
  return validationItem('string_too_short', loc, `String should have at least ${plural(min, 'character')}`, value, { min_length: min });
}

function stringTooLong(loc: ValidationLoc, value: string, max: number): ValidationErrorItem {
  return validationItem('string_too_long', loc, `String should have at most ${plural(max, 'character')}`, value, { max_length: max });
}

function tooShort(loc: ValidationLoc, value: unknown, fieldType: string, min: number, actual: number): ValidationErrorItem {
  return validationItem('too_short', loc, `${fieldType} should have at least ${plural(min, 'item')} after validation, not ${actual}`, value, {
    field_type: fieldType,
    min_length: min,
    actual_length: actual,
  });
}

function tooLong(loc: ValidationLoc, value: unknown, fieldType: string, max: number, actual: number): ValidationErrorItem {
  return validationItem('too_long', loc, `${fieldType} should have at most ${plural(max, 'item')} after validation, not ${actual}`, value, {
    field_type: fieldType,
    max_length: max,
    actual_length: actual,
  });
}

function enumItem(loc: ValidationLoc, value: unknown, allowed: unknown[]): ValidationErrorItem {
  const quoted = allowed.map((entry) => `'${String(entry)}'`);
  const expected = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : (quoted[0] ?? '');
  return validationItem('enum', loc, `Input should be ${expected}`, value, { expected });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
