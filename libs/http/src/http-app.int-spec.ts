import { Body, Controller, Get, Header, HttpCode, Module, Param, Post, Query, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsOptional, IsString, Length } from 'class-validator';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { createHttpApp, listen } from './http-app';
import { MAX_JSON_DEPTH, RequestWithRawBody } from './json-body';
import { createLogger } from './logger';

class FilterDto {
  @IsOptional()
  @IsString()
  name?: string;
}

class EchoDto {
  @IsString()
  @Length(3, 10)
  name!: string;
}

@Controller()
class TestController {
  @Get('ok')
  ok(): { ok: true } {
    return { ok: true };
  }

  @Post('echo')
  @HttpCode(201)
  echo(@Body() body: EchoDto, @Req() request: RequestWithRawBody): { name: string; raw: string | undefined } {
    return { name: body.name, raw: request.rawBody };
  }

  @Post('conflict')
  conflict(): never {
    throw ApiError.conflict(ErrorCode.TaskNotLive, 'Task is paused.', { task_id: 't-1' });
  }

  @Get('doc.md')
  @Header('content-type', 'text/markdown; charset=utf-8')
  missingDocument(): never {
    throw ApiError.notFound(ErrorCode.TaskNotFound, 'No such task.');
  }

  @Get('filter')
  filter(@Query() query: FilterDto): FilterDto {
    return query;
  }

  @Get('things/:id')
  thing(@Param('id') id: string): { id: string } {
    return { id };
  }

  @Get('boom')
  boom(): never {
    throw new TypeError('secret internal detail');
  }
}

@Module({ controllers: [TestController] })
class TestModule {}

describe('createHttpApp', () => {
  let app: NestFastifyApplication;
  let base: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(chunk.toString());
        callback();
      },
    });
    app = await createHttpApp(TestModule, {
      logger: createLogger({ level: 'info', name: 'test', destination }),
      bodyLimit: 1024,
      openApi: { title: 'Test', description: 'test app', version: '0.1.0' },
    });
    base = await listen(app, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await app.close();
  });

  /** Sends `text` on a plain socket and returns everything the server wrote before it closed. */
  const rawRequest = (text: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const socket = connect(Number(port), hostname, () => socket.end(text));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });

  const post = (path: string, body: string, contentType = 'application/json') =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('answers with a request id, echoing a well-formed one the client sent', async () => {
    const generated = await fetch(`${base}/ok`);
    expect(generated.status).toBe(200);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await fetch(`${base}/ok`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const hostile = await fetch(`${base}/ok`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(hostile.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('keeps the raw JSON text next to the parsed body', async () => {
    const raw = '{ "name" : "abcd" }';
    const response = await post('/echo', raw);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ name: 'abcd', raw });
  });

  it('answers 422 with one FastAPI-shaped item per violation', async () => {
    const response = await post('/echo', '{"name": "ab", "extra": 1}');
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: { type: string; loc: unknown[] }[] };
    expect(body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'extra_forbidden', loc: ['body', 'extra'] }),
        expect.objectContaining({ type: 'string_too_short', loc: ['body', 'name'] }),
      ]),
    );
    expect(body.detail).toHaveLength(2);
  });

  it('answers 400 malformed_body for broken JSON', async () => {
    const response = await post('/echo', '{"name": ');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: { error: string } }).detail.error).toBe('malformed_body');
  });

  it('answers 415 unsupported_media_type for a body in another content type', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await post('/echo', 'name=abc', contentType);
      expect({ contentType, status: response.status }).toEqual({ contentType, status: 415 });
      expect(((await response.json()) as { detail: { error: string } }).detail.error).toBe('unsupported_media_type');
    }
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels with a 422 item, before anything walks it`, async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const deep = await post('/echo', `{"name": "abcd", "extra": ${nested(400)}}`);
    expect(deep.status).toBe(422);
    expect(await deep.json()).toEqual({
      detail: [{ type: 'json_too_deep', loc: ['body'], msg: expect.any(String), ctx: { max_depth: MAX_JSON_DEPTH } }],
    });
    // At the bound the body is read (and its unknown field refused as usual); brackets in strings do not count.
    const atBound = await post('/echo', `{"name": "abcd", "extra": ${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(((await atBound.json()) as { detail: { type: string }[] }).detail.map((item) => item.type)).toEqual(['extra_forbidden']);
    const inString = await post('/echo', JSON.stringify({ name: nested(100) }));
    expect(((await inString.json()) as { detail: { type: string }[] }).detail.map((item) => item.type)).toEqual(['string_too_long']);
  });

  it('refuses properties named like Object.prototype members (422 extra_forbidden) instead of dropping them', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
      const response = await post('/echo', `{"name": "abcd", "${key}": {"polluted": true}}`);
      expect({ key, status: response.status }).toEqual({ key, status: 422 });
      expect(await response.json()).toEqual({
        detail: [{ type: 'extra_forbidden', loc: ['body', key], msg: expect.any(String), input: { polluted: true } }],
      });
    }
  });

  it('refuses reserved names in a query string too', async () => {
    for (const key of ['__proto__', 'constructor', 'toString']) {
      const response = await fetch(`${base}/filter?name=a&${key}=x`);
      expect({ key, status: response.status }).toEqual({ key, status: 422 });
      expect(((await response.json()) as { detail: { type: string; loc: unknown[] }[] }).detail).toEqual([
        expect.objectContaining({ type: 'extra_forbidden', loc: ['query', key] }),
      ]);
    }
  });

  it('answers 415 for a body sent without any content type', async () => {
    const response = await rawRequest('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\nConnection: close\r\n\r\n{"name":"abcd"}');
    expect(response.split('\r\n')[0]).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({ detail: { error: 'unsupported_media_type' } });
  });

  it('answers 404 not_found in the detail shape for a path parameter over the router limit or bad percent-encoding', async () => {
    expect((await fetch(`${base}/things/${'x'.repeat(100)}`)).status).toBe(200);
    for (const path of [`/things/${'x'.repeat(101)}`, '/things/%E0%A4%A', '/things/%zz']) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(((await response.json()) as { detail: { error: string } }).detail.error).toBe('not_found');
    }
  });

  it('answers 431 request_headers_too_large in the detail shape for oversized headers', async () => {
    const response = await rawRequest(`GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(response.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const body = response.slice(response.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({ detail: { error: 'request_headers_too_large', message: expect.any(String) } });
  });

  it('answers 400 malformed_request in the detail shape for a request that is not HTTP', async () => {
    const response = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(response.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    const body = response.slice(response.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({ detail: { error: 'malformed_request', message: expect.any(String) } });
  });

  it('answers 413 body_too_large past the body limit', async () => {
    const response = await post('/echo', JSON.stringify({ name: 'x'.repeat(2048) }));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { detail: { error: string } }).detail.error).toBe('body_too_large');
  });

  it('answers 404 not_found for unknown routes', async () => {
    const response = await fetch(`${base}/nope`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: { error: string } }).detail.error).toBe('not_found');
  });

  it('turns ApiError into detail.error, message and context', async () => {
    const response = await post('/conflict', '');
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      detail: { error: 'task_not_live', message: 'Task is paused.', task_id: 't-1' },
    });
  });

  it('answers errors as JSON even on routes that declare another content type', async () => {
    const response = await fetch(`${base}/doc.md`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as { detail: { error: string } }).detail.error).toBe('task_not_found');
  });

  it('hides internal failures behind internal_error and logs them with the same request id', async () => {
    const response = await fetch(`${base}/boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toContain('at ');
    const body = JSON.parse(text) as { detail: { error: string; request_id: string } };
    expect(body.detail.error).toBe('internal_error');
    expect(body.detail.request_id).toBe(response.headers.get('x-request-id'));
    const logged = logLines.map((line) => JSON.parse(line) as { reqId?: string; err?: { message: string } });
    expect(logged.some((l) => l.reqId === body.detail.request_id && l.err?.message === 'secret internal detail')).toBe(true);
  });

  it('logs each request in one info line with its request id, method, URL, status and time, and no headers', async () => {
    const response = await fetch(`${base}/things/one-line?x=1`, { headers: { 'x-request-id': 'log-line-1', 'x-signature': '0xsecret' } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const linesOf = (): Record<string, unknown>[] => logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.reqId === 'log-line-1');
    // The line is written when the response has finished on the server side: a bounded poll for it.
    for (let i = 0; i < 200 && linesOf().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const lines = linesOf();
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'request', method: 'GET', url: '/things/one-line?x=1', statusCode: 200, ms: expect.any(Number) }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('0xsecret');
  });

  it('serves /openapi.json (version 0.1.0), /docs and /redoc without the network', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as { info: { version: string }; paths: object };
    expect(document.info.version).toBe('0.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/ok', '/echo']));
    const docs = await fetch(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
    const redoc = await fetch(`${base}/redoc`);
    expect(await redoc.text()).toContain('/redoc/redoc.standalone.js');
    const bundle = await fetch(`${base}/redoc/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
