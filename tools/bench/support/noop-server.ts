/**
 * The auth ceiling of `npm run bench -- pool`: the pool's HTTP stack and pool-wallet guard (signature check,
 * one-time signature in Redis, canonical identity) in front of a handler that does nothing.
 * Usage: noop-server.ts <port> <redis-url> <redis-key-prefix>
 */
import 'reflect-metadata';
import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { AuthModule, cryptoReady, PoolSigned } from '@rcs/auth';
import { createHealthController, createHttpApp, createLogger, listen } from '@rcs/http';
import { REDIS, RedisModule } from '@rcs/queue';
import type { Redis } from 'ioredis';

const [port, redisUrl, prefix] = process.argv.slice(2);

@Controller()
class NoopController {
  @Post('noop')
  @HttpCode(200)
  @PoolSigned()
  noop(): Record<string, never> {
    return {};
  }
}

@Module({
  imports: [
    RedisModule.forRootAsync({ useFactory: () => ({ url: redisUrl, connectionName: 'bench-noop' }) }),
    AuthModule.forRootAsync({
      inject: [REDIS],
      useFactory: (redis: Redis) => ({
        redis,
        maxSkewSeconds: 300,
        replayKeyPrefix: `${prefix}:noop:replay:`,
        adminTokens: [],
        adminTokenSha256: [],
        validatorHotkeys: () => [],
        stake: null,
      }),
    }),
  ],
  controllers: [NoopController, createHealthController('bench-noop', '0.1.0')],
})
class NoopModule {}

async function main(): Promise<void> {
  await cryptoReady();
  const app = await createHttpApp(NoopModule, { logger: createLogger({ level: 'warn', name: 'bench-noop' }) });
  await listen(app, Number(port), '127.0.0.1');
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
