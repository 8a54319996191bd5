import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';

/** The one place where exceptions become HTTP responses (DECISIONS.md §1). */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const response = toErrorResponse(exception, String(request.id));
    if (response.internal) {
      request.log.error({ err: exception }, 'request failed');
    }
    // A route may have set another content type (@Header) before it threw: errors are always JSON.
    void reply
      .status(response.status)
      .headers(response.headers)
      .type('application/json; charset=utf-8')
      .send(response.body);
  }
}
