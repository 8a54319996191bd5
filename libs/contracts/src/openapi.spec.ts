import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SchemaObject, SwaggerModule } from '@nestjs/swagger';
import * as contracts from './index';

@Module({})
class EmptyModule {}

const dtoClasses = (Object.values(contracts) as unknown[]).filter(
  (value: unknown): value is new () => object => typeof value === 'function' && value.name.endsWith('Dto'),
);

/** The OpenAPI schemas the services will publish, built from every exported DTO. */
async function buildSchemas(): Promise<Record<string, SchemaObject>> {
  const app = await NestFactory.create(EmptyModule, new FastifyAdapter(), { logger: false });
  try {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { extraModels: dtoClasses });
    return (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  } finally {
    await app.close();
  }
}

describe('OpenAPI schemas of the contracts', () => {
  let schemas: Record<string, SchemaObject>;
  const schema = (name: string): SchemaObject => {
    const found = schemas[name];
    if (!found) throw new MissingSchema(name);
    return found;
  };
  const property = (model: string, name: string): SchemaObject => (schema(model).properties?.[name] ?? {}) as SchemaObject;

  beforeAll(async () => {
    schemas = await buildSchemas();
  });

  it('has a schema for every exported DTO', () => {
    expect(dtoClasses.length).toBeGreaterThan(40);
    expect(dtoClasses.map((dto) => dto.name).filter((name) => !schemas[name])).toEqual([]);
  });

  it('describes and types every property', () => {
    const gaps: string[] = [];
    for (const dto of dtoClasses) {
      for (const [name, prop] of Object.entries(schema(dto.name).properties ?? {})) {
        const described = prop as SchemaObject;
        if (!described.description) gaps.push(`${dto.name}.${name}: no description`);
        if (!described.type && !described.allOf && !described.oneOf && !('$ref' in described)) gaps.push(`${dto.name}.${name}: no type`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it('marks exactly the spec-required create-task fields as required, with their bounds', () => {
    expect(schema('CreateTaskDto').required?.sort()).toEqual(
      ['base_ref', 'benchmark_command', 'metric_direction', 'metric_name', 'repository', 'slug', 'time_budget_seconds', 'title'].sort(),
    );
    expect(property('CreateTaskDto', 'slug')).toMatchObject({ type: 'string', minLength: 3, maxLength: 120 });
    expect(property('CreateTaskDto', 'max_patch_bytes')).toMatchObject({ type: 'integer', minimum: 1, maximum: 1048576, default: 262144 });
    expect(property('CreateTaskDto', 'allowed_patch_paths')).toMatchObject({ type: 'array', maxItems: 64, items: { type: 'string' } });
    expect(property('CreateTaskDto', 'validator_benchmark_env')).toMatchObject({ type: 'object', maxProperties: 64, additionalProperties: { type: 'string' } });
    expect(property('CreateTaskDto', 'brief')).toMatchObject({ type: 'string', nullable: true, maxLength: 20000 });
  });

  it('keeps validator-private fields out of the public task', () => {
    expect(Object.keys(schema('TaskDto').properties ?? {})).not.toContain('validator_benchmark_env');
    expect(Object.keys(schema('ReplaySpecDto').properties ?? {})).toContain('validator_benchmark_env');
  });

  it('documents nullability, date-times and enums of responses', () => {
    expect(property('TaskDto', 'secondary_metric_name')).toMatchObject({ type: 'string', nullable: true });
    expect(property('TaskDto', 'created_at')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(property('SubmissionDetailDto', 'peer_consensus')).toMatchObject({ nullable: true });
    expect(property('PeerEvaluationDto', 'completed_at')).toMatchObject({ format: 'date-time', nullable: true });
    expect(schema('TaskState')).toMatchObject({ type: 'string', enum: ['live', 'paused', 'closed'] });
    expect(schema('VerdictStatus')).toMatchObject({ enum: ['accepted', 'rejected', 'error'] });
    expect(schema('VerificationStatus')).toMatchObject({ enum: ['accepted', 'rejected', 'error', 'pending'] });
    expect(property('SubmissionDto', 'claimed_metrics')).toMatchObject({ type: 'object', additionalProperties: true });
  });

  it('describes competition_overrides as a record of competition policies', () => {
    expect(property('UpdateRewardPolicyDto', 'competition_overrides')).toMatchObject({
      type: 'object',
      additionalProperties: { $ref: '#/components/schemas/CompetitionPolicyDto' },
    });
    expect(schema('RewardPolicyDto').required).toEqual(['updated_at']);
  });

  it('describes the 422 body', () => {
    expect(property('ValidationErrorDto', 'detail')).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/ValidationErrorItemDto' } });
    expect(schema('ValidationErrorItemDto').required).toEqual(['type', 'loc', 'msg']);
  });
});

class MissingSchema extends Error {
  constructor(name: string) {
    super(`no schema named ${name}`);
  }
}
