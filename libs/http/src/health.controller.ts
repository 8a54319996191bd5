import { Controller, Get, Type } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';

/** A liveness route for a service: answers as long as the process serves HTTP. */
export function createHealthController(service: string, version: string, paths: string[] = ['healthz']): Type<unknown> {
  @ApiTags('health')
  @Controller()
  class HealthController {
    @Get(paths)
    @ApiOkResponse({ description: 'The process is up.', schema: { type: 'object', additionalProperties: { type: 'string' } } })
    health(): Record<string, string> {
      return { status: 'ok', service, version };
    }
  }
  return HealthController;
}
