import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WeightSetterStatusDto } from '@rcs/contracts';
import { StatusService, type WeightSetterReadiness } from './status.service';

@ApiTags('weights')
@Controller()
export class StatusController {
  constructor(@Inject(StatusService) private readonly status: StatusService) {}

  @Get('status')
  @ApiOkResponse({ type: WeightSetterStatusDto, description: 'The hotkey, whether this process owns it, and the last pass (DECISIONS §12).' })
  getStatus(): Promise<WeightSetterStatusDto> {
    return this.status.status();
  }

  @Get('readyz')
  @ApiOkResponse({ description: 'Redis and the chain answer; says whether this process owns the hotkey or stands by.' })
  @ApiServiceUnavailableResponse({ description: 'Redis or the chain does not answer.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<WeightSetterReadiness> {
    const readiness = await this.status.readiness();
    void reply.status(readiness.status === 'ready' ? 200 : 503);
    return readiness;
  }
}
