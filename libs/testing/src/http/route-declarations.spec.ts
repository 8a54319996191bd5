import { Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AuthClass, authClassMetadata, Public } from '@rcs/auth';
import { ApiErrors, ErrorCode, SIGNATURE_ERRORS } from '@rcs/contracts';
import { routeDeclarationGaps, routeDeclarations } from './route-declarations';

@Controller('api/v1/things')
class ThingsController {
  @Get()
  @Public()
  @ApiErrors()
  list(): string[] {
    return [];
  }

  @Post()
  @authClassMetadata(AuthClass.Signed)
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.DuplicateSlug)
  create(): string {
    return 'created';
  }

  @Post(':id/close')
  @authClassMetadata(AuthClass.Signed)
  @ApiErrors(ErrorCode.MissingSignature, ErrorCode.TaskNotFound)
  close(): string {
    return 'closed';
  }

  @Get(':id')
  get(): string {
    return 'thing';
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('routeDeclarations / routeDeclarationGaps', () => {
  it('lists every route with its declarations and names each missing one', async () => {
    const app = await NestFactory.create(ThingsModule, new FastifyAdapter(), { logger: false });
    try {
      await app.init();
      expect(routeDeclarations(app).map(({ route, authClass }) => [route, authClass])).toEqual([
        ['GET api/v1/things', AuthClass.Public],
        ['GET api/v1/things/:id', undefined],
        ['POST api/v1/things', AuthClass.Signed],
        ['POST api/v1/things/:id/close', AuthClass.Signed],
      ]);
      expect(routeDeclarationGaps(app)).toEqual([
        'GET api/v1/things/:id: no auth class (@Public(), @Signed(), ...)',
        'GET api/v1/things/:id: no @ApiErrors(...)',
        'POST api/v1/things/:id/close: signed route does not declare invalid_signature, stale_timestamp, replayed_signature',
      ]);
    } finally {
      await app.close();
    }
  });
});
