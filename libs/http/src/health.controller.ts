import { applyDecorators, Controller, Get, Type } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';

/**
 * A liveness route for a service: answers as long as the process serves HTTP. `routeDecorators` are
 * what the app's guards and OpenAPI checks ask every route to declare (its auth class, its errors).
 */
export function createHealthController(service: string, version: string, paths: string[] = ['healthz'], ...routeDecorators: MethodDecorator[]): Type<unknown> {
  @ApiTags('health')
  @Controller()
  class HealthController {
    @Get(paths)
    @applyDecorators(...routeDecorators)
    @ApiOkResponse({ description: 'The process is up.', schema: { type: 'object', additionalProperties: { type: 'string' } } })
    health(): Record<string, string> {
      return { status: 'ok', service, version };
    }
  }
  return HealthController;
}
