import { ClassConstructor, plainToInstance, Transform } from 'class-transformer';
import {
  registerDecorator,
  ValidationArguments,
  ValidationError,
  ValidationOptions,
  ValidatorOptions,
  validateSync,
} from 'class-validator';

/** Names of the constraints defined here, as they appear in `ValidationError.constraints`. */
export enum ContractConstraint {
  RepoGlob = 'isRepoGlob',
  StringRecord = 'isStringRecord',
  MaxProperties = 'maxProperties',
  NestedRecord = 'validateNestedRecord',
  ExactlyOneOf = 'exactlyOneOf',
  MetricRecord = 'isMetricRecord',
}

/** class-validator's own name for "a nested value is not an object". */
export const NESTED_VALIDATION_CONSTRAINT = 'nestedValidation';

export const REPO_GLOB_MAX_LENGTH = 1000;

/** Why a value is not a repository-relative glob (DECISIONS §3). */
export enum RepoGlobViolation {
  NotString = 'not_string',
  Empty = 'empty',
  TooLong = 'too_long',
  Absolute = 'absolute',
  ParentSegment = 'parent_segment',
  Backslash = 'backslash',
  ControlCharacter = 'control_character',
}

/** A non-null, non-array object: a JSON object once parsed. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasControlCharacter(value: string): boolean {
  return [...value].some((character) => character < ' ' || character === '\u007f');
}

export function repoGlobViolation(value: unknown): RepoGlobViolation | null {
  if (typeof value !== 'string') return RepoGlobViolation.NotString;
  if (value.length === 0) return RepoGlobViolation.Empty;
  if (value.length > REPO_GLOB_MAX_LENGTH) return RepoGlobViolation.TooLong;
  if (value.includes('\\')) return RepoGlobViolation.Backslash;
  if (hasControlCharacter(value)) return RepoGlobViolation.ControlCharacter;
  if (value.startsWith('/')) return RepoGlobViolation.Absolute;
  if (value.split('/').includes('..')) return RepoGlobViolation.ParentSegment;
  return null;
}

/** A repository-relative glob: non-empty, no leading `/`, no `..` segment, no backslash, ≤ 1000 characters. */
export function IsRepoGlob(options?: ValidationOptions): PropertyDecorator {
  return propertyRule(ContractConstraint.RepoGlob, options, [], {
    validate: (value) => repoGlobViolation(value) === null,
    defaultMessage: (args) => `${args.property} must be a repository-relative glob pattern`,
  });
}

/** A JSON object whose values are all strings. */
export function IsStringRecord(options?: ValidationOptions): PropertyDecorator {
  return propertyRule(ContractConstraint.StringRecord, options, [], {
    validate: (value) => isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string'),
    defaultMessage: (args) => `${args.property} must be an object of string values`,
  });
}

/** At most `max` own properties; values that are not objects are left to the type rule. */
export function MaxProperties(max: number, options?: ValidationOptions): PropertyDecorator {
  return propertyRule(ContractConstraint.MaxProperties, options, [max], {
    validate: (value) => !isRecord(value) || Object.keys(value).length <= max,
    defaultMessage: (args) => `${args.property} must have at most ${max} properties`,
  });
}

/** The spec's bound on a metric name (`metric_name`: 1..120 characters), also for the keys of metric objects. */
export const METRIC_NAME_MAX_LENGTH = 120;

/** Why one entry of a metrics object is refused. */
export enum MetricEntryViolation {
  NameEmpty = 'name_empty',
  NameTooLong = 'name_too_long',
  NotFiniteNumber = 'not_finite_number',
}

/** Every refused entry of a metrics object: names of 1..120 characters, finite number values. */
export function metricRecordViolations(value: unknown): { key: string; value: unknown; violation: MetricEntryViolation }[] {
  if (!isRecord(value)) return [];
  const violations: { key: string; value: unknown; violation: MetricEntryViolation }[] = [];
  for (const [key, entry] of Object.entries(value)) {
    if (key.length === 0) violations.push({ key, value: entry, violation: MetricEntryViolation.NameEmpty });
    else if (key.length > METRIC_NAME_MAX_LENGTH) violations.push({ key, value: entry, violation: MetricEntryViolation.NameTooLong });
    if (typeof entry !== 'number' || !Number.isFinite(entry)) {
      violations.push({ key, value: entry, violation: MetricEntryViolation.NotFiniteNumber });
    }
  }
  return violations;
}

/**
 * Metrics as the services store and serve them: names of 1..120 characters and finite numbers only, so
 * a metrics object can carry nothing else (no text, no nested data). Values that are not objects are
 * left to the type rule.
 */
export function IsMetricRecord(options?: ValidationOptions): PropertyDecorator {
  return propertyRule(ContractConstraint.MetricRecord, options, [], {
    validate: (value) => metricRecordViolations(value).length === 0,
    defaultMessage: (args) => `${args.property} must map metric names of 1..${METRIC_NAME_MAX_LENGTH} characters to finite numbers`,
  });
}

/**
 * Exactly one of `properties` is set (not null, not undefined) on the object. Put it on a property
 * without `@IsOptional()` so it also runs when that property is absent.
 */
export function ExactlyOneOf(properties: readonly string[], options?: ValidationOptions): PropertyDecorator {
  return propertyRule(ContractConstraint.ExactlyOneOf, options, [properties], {
    validate: (_value, args) => {
      const owner = args.object as Record<string, unknown>;
      return properties.filter((property) => owner[property] != null).length === 1;
    },
    defaultMessage: () => `exactly one of ${properties.join(', ')} must be set`,
  });
}

/** The options every record entry is validated with: unknown properties are rejected at every level. */
const RECORD_ENTRY_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: true },
};

/**
 * `Record<string, T>` with every value built as `T` and validated like a nested object.
 * class-validator validates a plain object as one nested value, not per entry, hence this rule.
 */
export function ValidateNestedRecord(type: () => ClassConstructor<object>, options?: ValidationOptions): PropertyDecorator {
  const toInstances = Transform(({ value, options: transformOptions }) =>
    isRecord(value)
      ? Object.fromEntries(
          Object.entries(value).map(([key, entry]) => [
            key,
            isRecord(entry) ? plainToInstance(type(), entry, transformOptions) : entry,
          ]),
        )
      : value,
    { toClassOnly: true },
  );
  const rule = propertyRule(ContractConstraint.NestedRecord, options, [], {
    validate: (value) => isRecord(value) && nestedRecordErrors(value).length === 0,
    defaultMessage: (args) => `${args.property} must be an object of valid entries`,
  });
  return (target, propertyKey) => {
    toInstances(target, propertyKey);
    rule(target, propertyKey);
  };
}

/**
 * The errors of each entry of a record validated by `ValidateNestedRecord`, shaped like
 * class-validator's nested errors (`property` is the entry's key), so they flatten the same way.
 */
export function nestedRecordErrors(value: unknown): ValidationError[] {
  if (!isRecord(value)) return [];
  const errors: ValidationError[] = [];
  for (const [key, entry] of Object.entries(value)) {
    const error = Object.assign(new ValidationError(), { property: key, value: entry, children: [] });
    if (!isRecord(entry)) {
      error.constraints = { [NESTED_VALIDATION_CONSTRAINT]: `${key} must be an object` };
      errors.push(error);
      continue;
    }
    const children = validateSync(entry, RECORD_ENTRY_OPTIONS);
    if (children.length > 0) errors.push(Object.assign(error, { children }));
  }
  return errors;
}

interface RuleValidator {
  validate(value: unknown, args: ValidationArguments): boolean;
  defaultMessage(args: ValidationArguments): string;
}

function propertyRule(
  name: ContractConstraint,
  options: ValidationOptions | undefined,
  constraints: unknown[],
  validator: RuleValidator,
): PropertyDecorator {
  return (target, propertyKey) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyKey),
      options,
      constraints,
      validator,
    });
  };
}
