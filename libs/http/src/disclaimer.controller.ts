import { applyDecorators, Controller, Get, Header, Type } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiErrors, DisclaimerDto, PARTICIPATION_DISCLAIMER } from '@rcs/contracts';

/** Where a service serves one form of the participation disclaimer, and how its OpenAPI document describes it. */
export interface DisclaimerRoute {
  paths: string | string[];
  description: string;
}

/**
 * The participation disclaimer, as JSON and as Markdown, the same content in every service (from
 * libs/contracts); `routeDecorators` are what the app's guards ask every route to declare.
 */
export function createDisclaimerController(json: DisclaimerRoute, markdown: DisclaimerRoute, ...routeDecorators: MethodDecorator[]): Type<unknown> {
  @ApiTags('disclaimer')
  @Controller()
  class DisclaimerController {
    @Get(json.paths)
    @applyDecorators(...routeDecorators, ApiErrors())
    @ApiOkResponse({ type: DisclaimerDto, description: json.description })
    disclaimer(): DisclaimerDto {
      return PARTICIPATION_DISCLAIMER;
    }

    @Get(markdown.paths)
    @applyDecorators(...routeDecorators, ApiErrors())
    @Header('content-type', 'text/markdown; charset=utf-8')
    @ApiProduces('text/markdown')
    @ApiOkResponse({ description: markdown.description, schema: { type: 'string' } })
    disclaimerMarkdown(): string {
      return PARTICIPATION_DISCLAIMER.full_text;
    }
  }
  return DisclaimerController;
}
