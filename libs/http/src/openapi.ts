import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export interface OpenApiOptions {
  title: string;
  description: string;
  version: string;
  /** Adds what the app's routes refer to, e.g. the auth lib's security schemes. */
  configure?: (builder: DocumentBuilder) => DocumentBuilder;
}

function redocPage(title: string): string {
  return `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${title} — API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/redoc/redoc.standalone.js"></script>
  </body>
</html>`;
}

/** Serves the generated document at /openapi.json, Swagger UI at /docs and ReDoc at /redoc, all offline. */
export function setupOpenApi(app: NestFastifyApplication, options: OpenApiOptions): OpenAPIObject {
  const builder = new DocumentBuilder().setTitle(options.title).setDescription(options.description).setVersion(options.version);
  const document = SwaggerModule.createDocument(app, (options.configure ? options.configure(builder) : builder).build());
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });

  const redocBundle = readFileSync(join(dirname(require.resolve('redoc')), '..', 'bundles', 'redoc.standalone.js'));
  const fastify = app.getHttpAdapter().getInstance();
  const page = redocPage(options.title);
  fastify.get('/redoc', (_request, reply) => {
    void reply.type('text/html; charset=utf-8').send(page);
  });
  fastify.get('/redoc/redoc.standalone.js', (_request, reply) => {
    void reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(redocBundle);
  });
  return document;
}
