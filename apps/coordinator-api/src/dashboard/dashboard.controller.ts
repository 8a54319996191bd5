import { Public } from '@rcs/auth';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, DashboardDto } from '@rcs/contracts';
import { DashboardService } from './dashboard.service';

@ApiTags('dashboard')
@Controller('api/v1/dashboard')
export class DashboardController {
  constructor(private readonly dashboardService: DashboardService) {}

  @Get()
  @Public()
  @ApiErrors()
  @ApiOperation({
    summary: 'Competition dashboard',
    description:
      'Public. Tasks (newest first, capped) with their best result, submissions per status, active claims and open work items; ' +
      'the validator job backlog; the latest decisions. Read in one snapshot; no validator-private data.',
  })
  @ApiOkResponse({ type: DashboardDto, description: 'The dashboard as of `generated_at`.' })
  dashboard(): Promise<DashboardDto> {
    return this.dashboardService.dashboard();
  }
}
