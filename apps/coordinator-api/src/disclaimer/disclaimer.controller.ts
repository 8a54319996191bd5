import { Public } from '@rcs/auth';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiErrors, DisclaimerDto, PARTICIPATION_DISCLAIMER } from '@rcs/contracts';

@ApiTags('disclaimer')
@Controller('api/v1')
export class DisclaimerController {
  @Get('disclaimer')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: DisclaimerDto, description: 'Participation disclaimer every client must show (must_display is true).' })
  disclaimer(): DisclaimerDto {
    return PARTICIPATION_DISCLAIMER;
  }

  @Get('disclaimer.md')
  @Public()
  @ApiErrors()
  @Header('content-type', 'text/markdown; charset=utf-8')
  @ApiProduces('text/markdown')
  @ApiOkResponse({ description: 'The same disclaimer as Markdown.', schema: { type: 'string' } })
  disclaimerMarkdown(): string {
    return PARTICIPATION_DISCLAIMER.full_text;
  }
}
