import { Public } from '@rcs/auth';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiErrors, DisclaimerDto, PARTICIPATION_DISCLAIMER } from '@rcs/contracts';

/** The participation disclaimer: the same content as the coordinator's, from libs/contracts. */
@ApiTags('disclaimer')
@Controller()
export class DisclaimerController {
  @Get('api/v1/disclaimer')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: DisclaimerDto, description: 'Participation disclaimer every client must show.' })
  disclaimer(): DisclaimerDto {
    return PARTICIPATION_DISCLAIMER;
  }

  @Get(['api/v1/disclaimer.md', 'disclaimer.md'])
  @Public()
  @ApiErrors()
  @Header('content-type', 'text/markdown; charset=utf-8')
  @ApiProduces('text/markdown')
  @ApiOkResponse({ description: 'The same disclaimer as Markdown (also at the root, compat).', schema: { type: 'string' } })
  disclaimerMarkdown(): string {
    return PARTICIPATION_DISCLAIMER.full_text;
  }
}
