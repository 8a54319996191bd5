import { ApiProperty } from '@nestjs/swagger';
import * as wireEnums from '../enums';

/**
 * `@ApiProperty` of the kinds of field the answers repeat, so a field reads as its kind and its
 * description; each `…OrNull` also documents `nullable: true`.
 */
export function ApiText(description: string): PropertyDecorator {
  return ApiProperty({ type: String, description });
}

export function ApiTextOrNull(description: string): PropertyDecorator {
  return ApiProperty({ type: String, nullable: true, description });
}

export function ApiInteger(description: string): PropertyDecorator {
  return ApiProperty({ type: 'integer', description });
}

export function ApiIntegerOrNull(description: string): PropertyDecorator {
  return ApiProperty({ type: 'integer', nullable: true, description });
}

export function ApiNumber(description: string): PropertyDecorator {
  return ApiProperty({ type: Number, description });
}

export function ApiNumberOrNull(description: string): PropertyDecorator {
  return ApiProperty({ type: Number, nullable: true, description });
}

export function ApiBoolean(description: string): PropertyDecorator {
  return ApiProperty({ type: Boolean, description });
}

export function ApiBooleanOrNull(description: string): PropertyDecorator {
  return ApiProperty({ type: Boolean, nullable: true, description });
}

/** An ISO 8601 timestamp. */
export function ApiDateTime(description: string): PropertyDecorator {
  return ApiProperty({ type: String, format: 'date-time', description });
}

export function ApiDateTimeOrNull(description: string): PropertyDecorator {
  return ApiProperty({ type: String, format: 'date-time', nullable: true, description });
}

/** Each wire enumeration of `enums.ts` by value, with the name its OpenAPI schema has (its own). */
const ENUM_NAMES = new Map<object, string>(
  Object.entries(wireEnums)
    .filter(([, values]) => !Array.isArray(values))
    .map(([name, values]) => [values, name]),
);

/** Refuses, when the DTOs load, an enumeration that has no name to document it under. */
class UnnamedEnumError extends Error {
  constructor() {
    super('ApiEnum takes a wire enumeration of enums.ts');
    this.name = 'UnnamedEnumError';
  }
}

/** The schema name of a wire enumeration of `enums.ts`; refuses any other object. */
export function enumName(values: object): string {
  const name = ENUM_NAMES.get(values);
  if (name === undefined) throw new UnnamedEnumError();
  return name;
}

/** A wire enumeration of `enums.ts`, documented once as a named schema that every use refers to. */
export function ApiEnum(values: object, description: string): PropertyDecorator {
  return ApiProperty({ enum: values, enumName: enumName(values), description });
}

export function ApiEnumOrNull(values: object, description: string): PropertyDecorator {
  return ApiProperty({ enum: values, enumName: enumName(values), nullable: true, description });
}

/** A JSON object of any values (metrics as stored, for instance). */
export function ApiJsonObject(description: string): PropertyDecorator {
  return ApiProperty({ description, type: 'object', additionalProperties: true });
}
