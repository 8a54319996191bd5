import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ApiError } from './api-error';
import { ApiErrors, declaredErrors } from './api-errors.decorator';
import { ErrorCode } from './error-code';
import { ERROR_STATUS } from './error-status';

@Controller()
class ProbeController {
  @Get('probe')
  @ApiErrors(ErrorCode.TaskNotFound, [ErrorCode.DuplicateActiveClaim, '(with the existing `claim_id`)'], ErrorCode.TaskNotLive, [ErrorCode.RateLimited, 'with Retry-After'])
  probe(): string {
    return 'ok';
  }

  @Get('quiet')
  @ApiErrors()
  quiet(): string {
    return 'ok';
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('errors typed once (ERROR_STATUS)', () => {
  it('gives every code a 4xx or 5xx status', () => {
    for (const code of Object.values(ErrorCode)) {
      expect([code, ERROR_STATUS[code] >= 400 && ERROR_STATUS[code] < 600]).toEqual([code, true]);
    }
  });

  it('takes the status of new ApiError(code, …) from the table, as the named factories do', () => {
    const conflict = new ApiError(ErrorCode.TaskNotLive, 'Task is paused.', { task_id: 't-1' });
    expect({ status: conflict.status, code: conflict.code, context: conflict.context, headers: conflict.headers }).toEqual({
      status: 409,
      code: ErrorCode.TaskNotLive,
      context: { task_id: 't-1' },
      headers: {},
    });
    expect(new ApiError(ErrorCode.RateLimited, 'slow down', {}, { 'retry-after': '3' }).headers).toEqual({ 'retry-after': '3' });
    expect(ApiError.notFound(ErrorCode.TaskNotFound, 'x').status).toBe(404);
    expect(ApiError.forbidden(ErrorCode.NotClaimOwner, 'x').status).toBe(403);
    expect(ApiError.unauthorized(ErrorCode.InvalidSignature, 'x').status).toBe(401);
    expect(ApiError.unavailable(ErrorCode.ChainUnavailable, 'x').status).toBe(503);
    expect(new ApiError(ErrorCode.PlannerTimeout, 'x').status).toBe(504);
  });

  it('documents one OpenAPI response per status of the declared codes, and records the codes', async () => {
    const app = await NestFactory.create(ProbeModule, new FastifyAdapter(), { logger: false });
    try {
      const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
      const responses = document.paths['/probe']?.get?.responses ?? {};
      expect(Object.keys(responses).sort()).toEqual(['404', '409', '429']);
      expect(responses['409']).toMatchObject({
        description: '`duplicate_active_claim` (with the existing `claim_id`), or `task_not_live`.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetailDto' } } },
      });
      expect(responses['429']).toMatchObject({ description: '`rate_limited`: with Retry-After.' });
      expect(Object.keys(document.paths['/quiet']?.get?.responses ?? {})).toEqual(['200']);
    } finally {
      await app.close();
    }
    expect(declaredErrors(ProbeController.prototype.quiet)).toEqual([]);
    expect(declaredErrors(ProbeController.prototype.probe)).toEqual([
      ErrorCode.TaskNotFound,
      ErrorCode.DuplicateActiveClaim,
      ErrorCode.TaskNotLive,
      ErrorCode.RateLimited,
    ]);
  });
});
