import { Catch, Controller, Get, Inject, Module, Post, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiError, ErrorCode } from '@rcs/contracts';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { deleteKeys, testRedis, uniquePrefix } from '../../test/redis';
import type { AuthPrincipal } from '../principal';
import { BtAuthSigner, keypairFromUri } from '../signer';
import { AuthModule } from './auth.module';
import type { AuthOptions, StakeSource } from './auth.options';
import { AuthStatus } from './auth-status';
import { Admin, CurrentAuth, Signed, StakeGated, Validator } from './decorators';

const NETUID = 94;
const ADMIN_TOKEN = 'guard-test-admin-token';

/** The chain as the stake gate sees it, held in memory; counts how often it is asked. */
class MemoryStakeSource implements StakeSource {
  readonly stakes = new Map<string, bigint>();
  readonly uids = new Map<string, number>();
  reachable = true;
  calls = 0;

  alphaStake(hotkey: string, netuid: number): Promise<bigint> {
    this.calls++;
    if (!this.reachable || netuid !== NETUID) return Promise.reject(new TypeError('chain unreachable'));
    return Promise.resolve(this.stakes.get(hotkey) ?? 0n);
  }

  uidOf(hotkey: string): Promise<number | null> {
    if (!this.reachable) return Promise.reject(new TypeError('chain unreachable'));
    return Promise.resolve(this.uids.get(hotkey) ?? null);
  }
}

@Controller()
class ProbeController {
  constructor(@Inject(AuthStatus) private readonly status: AuthStatus) {}

  @Post('signed')
  @Signed()
  signed(@CurrentAuth() principal: AuthPrincipal): AuthPrincipal {
    return principal;
  }

  @Get('readable')
  @Signed({ allowAdmin: true })
  readable(@CurrentAuth() principal: AuthPrincipal): AuthPrincipal {
    return principal;
  }

  @Post('staked')
  @StakeGated()
  staked(@CurrentAuth() principal: AuthPrincipal): AuthPrincipal {
    return principal;
  }

  @Post('validator')
  @Validator()
  validator(@CurrentAuth() principal: AuthPrincipal): AuthPrincipal {
    return principal;
  }

  @Get('admin')
  @Admin()
  admin(@CurrentAuth() principal: AuthPrincipal): AuthPrincipal {
    return principal;
  }

  @Get('readyz')
  readyz(): { stake_check: string } {
    return { stake_check: this.status.stakeCheck };
  }
}

/** Stands in for the global filter of @rcs/http: ApiError → `{detail: {error, message, ...context}}`. */
@Catch(ApiError)
class ApiErrorFilter implements ExceptionFilter {
  catch(error: ApiError, host: ArgumentsHost): void {
    void host
      .switchToHttp()
      .getResponse<FastifyReply>()
      .status(error.status)
      .send({ detail: { error: error.code, message: error.message, ...error.context } });
  }
}

async function startApp(options: AuthOptions): Promise<{ app: NestFastifyApplication; url: string }> {
  @Module({ imports: [AuthModule.forRootAsync({ useFactory: () => options })], controllers: [ProbeController] })
  class ProbeModule {}

  const app = await NestFactory.create<NestFastifyApplication>(ProbeModule, new FastifyAdapter(), {
    logger: false,
    bodyParser: false,
  });
  // What @rcs/http does for real: keep the body text for signature checks, parse it for handlers.
  app
    .getHttpAdapter()
    .getInstance()
    .addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      Object.assign(request, { rawBody: text });
      try {
        done(null, text.length === 0 ? undefined : JSON.parse(text));
      } catch {
        done(null, undefined);
      }
    });
  app.useGlobalFilters(new ApiErrorFilter());
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

/** The same key written with another SS58 network prefix (DECISIONS.md §2 Identity). */
function respelled(ss58: string, prefix: number): string {
  return encodeAddress(decodeAddress(ss58), prefix);
}

function signers(...uris: string[]): Promise<BtAuthSigner[]> {
  return Promise.all(uris.map(async (uri) => new BtAuthSigner(await keypairFromUri(uri))));
}

interface Reply {
  status: number;
  body: { detail?: Record<string, unknown> } & Record<string, unknown>;
}

describe('auth guards over real HTTP', () => {
  const prefix = uniquePrefix('guards');
  const source = new MemoryStakeSource();
  const validators: string[] = [];
  let redis: Redis;
  let configured: { app: NestFastifyApplication; url: string };
  let bare: { app: NestFastifyApplication; url: string };
  let alice: BtAuthSigner; // staked
  let bob: BtAuthSigner; // uid, no stake
  let charlie: BtAuthSigner; // neither
  let dave: BtAuthSigner; // validator

  beforeAll(async () => {
    redis = testRedis(process.env.REDIS_URL);
    [alice, bob, charlie, dave] = await signers('//Alice', '//Bob', '//Charlie', '//Dave');
    source.stakes.set(alice.hotkey, 5n);
    source.stakes.set(bob.hotkey, 4n);
    source.uids.set(bob.hotkey, 7);
    source.stakes.set(charlie.hotkey, 4n);
    validators.push(dave.hotkey);
    const common = { redis, maxSkewSeconds: 300, replayKeyPrefix: `${prefix}replay:`, stakeCacheKeyPrefix: `${prefix}stake:` };
    configured = await startApp({
      ...common,
      adminTokens: [ADMIN_TOKEN],
      adminTokenSha256: [],
      validatorHotkeys: () => Promise.resolve(validators),
      stake: { source, netuid: NETUID, minStakeRao: 5n, cacheSeconds: 60 },
    });
    bare = await startApp({ ...common, adminTokens: [], adminTokenSha256: [], validatorHotkeys: () => [], stake: null });
  });

  afterAll(async () => {
    await Promise.all([configured.app.close(), bare.app.close()]);
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  async function send(
    base: string,
    method: 'GET' | 'POST',
    path: string,
    options: { signer?: BtAuthSigner; body?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const signed = options.signer?.signRequest({ method, url: path, body: options.body }) ?? {};
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...signed,
        ...options.headers,
      },
      body: options.body,
    });
    return { status: response.status, body: (await response.json()) as Reply['body'] };
  }

  describe('@Signed()', () => {
    it('answers 401 missing_signature without the headers', async () => {
      const reply = await send(configured.url, 'POST', '/signed', { body: '{}' });
      expect(reply.status).toBe(401);
      expect(reply.body.detail).toMatchObject({ error: ErrorCode.MissingSignature });
    });

    it('admits a signed body and refuses its replay', async () => {
      const body = '{"z": 1.50, "a": "d\\u00e9j\\u00e0"}';
      const headers = alice.signRequest({ method: 'POST', url: '/signed?x=1', body });
      const first = await send(configured.url, 'POST', '/signed?x=1', { body, headers: { ...headers } });
      expect(first).toEqual({ status: 201, body: { kind: 'hotkey', hotkey: alice.hotkey } });
      const again = await send(configured.url, 'POST', '/signed?x=1', { body, headers: { ...headers } });
      expect([again.status, again.body.detail?.error]).toEqual([401, ErrorCode.ReplayedSignature]);
    });

    it('answers 400 malformed_body when the signed body is not JSON', async () => {
      // The signer refuses to sign broken JSON, so sign a valid body and send a broken one.
      const headers = { ...alice.signRequest({ method: 'POST', url: '/signed', body: '{}' }) };
      const reply = await send(configured.url, 'POST', '/signed', { headers, body: '{"a":' });
      expect([reply.status, reply.body.detail?.error]).toEqual([400, ErrorCode.MalformedBody]);
    });

    it('puts the canonical spelling (prefix 42) of X-Hotkey in the principal, whatever prefix was sent', async () => {
      for (const prefix of [2, 7, 42]) {
        const headers = { ...alice.signRequest({ method: 'POST', url: '/signed', body: '{}' }) };
        headers['X-Hotkey'] = respelled(alice.hotkey, prefix);
        const reply = await send(configured.url, 'POST', '/signed', { body: '{}', headers });
        expect({ prefix, reply }).toEqual({ prefix, reply: { status: 201, body: { kind: 'hotkey', hotkey: alice.hotkey } } });
      }
    });

    it('lets an admin token read a route marked allowAdmin, and only with the right token', async () => {
      const admin = await send(configured.url, 'GET', '/readable', { headers: { 'x-admin-token': ADMIN_TOKEN } });
      expect(admin).toEqual({ status: 200, body: { kind: 'admin' } });
      const wrong = await send(configured.url, 'GET', '/readable', { headers: { 'x-admin-token': 'nope' } });
      expect([wrong.status, wrong.body.detail?.error]).toEqual([401, ErrorCode.InvalidAdminToken]);
      const signed = await send(configured.url, 'GET', '/readable?limit=5', { signer: bob });
      expect(signed).toEqual({ status: 200, body: { kind: 'hotkey', hotkey: bob.hotkey } });
    });
  });

  describe('@Admin()', () => {
    it('answers 503 admin_unconfigured when no token is configured', async () => {
      const reply = await send(bare.url, 'GET', '/admin', { headers: { 'x-admin-token': ADMIN_TOKEN } });
      expect([reply.status, reply.body.detail?.error]).toEqual([503, ErrorCode.AdminUnconfigured]);
    });

    it('answers 401 invalid_admin_token for a missing or wrong token', async () => {
      const attempts: Record<string, string>[] = [{}, { 'x-admin-token': `${ADMIN_TOKEN}x` }];
      for (const headers of attempts) {
        const reply = await send(configured.url, 'GET', '/admin', { headers });
        expect([reply.status, reply.body.detail?.error]).toEqual([401, ErrorCode.InvalidAdminToken]);
      }
    });

    it('admits the configured token', async () => {
      const reply = await send(configured.url, 'GET', '/admin', { headers: { 'x-admin-token': ADMIN_TOKEN } });
      expect(reply).toEqual({ status: 200, body: { kind: 'admin' } });
    });
  });

  describe('@Validator()', () => {
    it('answers 503 validator_allowlist_unconfigured before looking at the signature', async () => {
      const reply = await send(bare.url, 'POST', '/validator');
      expect([reply.status, reply.body.detail?.error]).toEqual([503, ErrorCode.ValidatorAllowlistUnconfigured]);
    });

    it('answers 403 validator_not_allowlisted for a valid signature by another hotkey', async () => {
      const reply = await send(configured.url, 'POST', '/validator', { signer: alice });
      expect(reply.status).toBe(403);
      expect(reply.body.detail).toMatchObject({ error: ErrorCode.ValidatorNotAllowlisted, hotkey: alice.hotkey });
    });

    it('compares the allowlist by key, not by spelling: either side may use any SS58 prefix', async () => {
      const [eve] = await signers('//Eve//validator');
      validators.push(respelled(eve.hotkey, 2));
      try {
        for (const prefix of [7, 42]) {
          const headers = { ...eve.signRequest({ method: 'POST', url: '/validator' }) };
          headers['X-Hotkey'] = respelled(eve.hotkey, prefix);
          const reply = await send(configured.url, 'POST', '/validator', { headers });
          expect({ prefix, reply }).toEqual({ prefix, reply: { status: 201, body: { kind: 'hotkey', hotkey: eve.hotkey } } });
        }
      } finally {
        validators.pop();
      }
    });

    it('admits an allowlisted validator and still needs a signature', async () => {
      const reply = await send(configured.url, 'POST', '/validator', { signer: dave, body: '{"limit": 1}' });
      expect(reply).toEqual({ status: 201, body: { kind: 'hotkey', hotkey: dave.hotkey } });
      const unsigned = await send(configured.url, 'POST', '/validator');
      expect([unsigned.status, unsigned.body.detail?.error]).toEqual([401, ErrorCode.MissingSignature]);
    });
  });

  describe('@StakeGated()', () => {
    it('admits a hotkey with the minimum stake', async () => {
      const reply = await send(configured.url, 'POST', '/staked', { signer: alice });
      expect(reply).toEqual({ status: 201, body: { kind: 'hotkey', hotkey: alice.hotkey } });
    });

    it('admits a hotkey below the minimum that holds a uid', async () => {
      const reply = await send(configured.url, 'POST', '/staked', { signer: bob });
      expect(reply.status).toBe(201);
    });

    it('answers 403 insufficient_miner_stake with hotkey, netuid, required and observed', async () => {
      const reply = await send(configured.url, 'POST', '/staked', { signer: charlie });
      expect(reply.status).toBe(403);
      expect(reply.body.detail).toEqual({
        error: ErrorCode.InsufficientMinerStake,
        message: expect.any(String),
        hotkey: charlie.hotkey,
        netuid: NETUID,
        required: '5',
        observed: '4',
      });
    });

    it('gates one key once, whatever its spelling: the stake cache and the 403 use the canonical form', async () => {
      const [poor] = await signers('//Eve//respelled');
      const before = source.calls;
      for (const prefix of [2, 7, 42]) {
        const headers = { ...poor.signRequest({ method: 'POST', url: '/staked' }) };
        headers['X-Hotkey'] = respelled(poor.hotkey, prefix);
        const refused = await send(configured.url, 'POST', '/staked', { headers });
        expect([refused.status, refused.body.detail?.hotkey]).toEqual([403, poor.hotkey]);
      }
      expect(source.calls - before).toBe(1);
    });

    it('caches pass and fail decisions: the chain is asked once per hotkey', async () => {
      const [rich, poor] = await signers('//Eve//rich', '//Eve//poor');
      source.stakes.set(rich.hotkey, 9n);
      const before = source.calls;
      for (let i = 0; i < 3; i++) {
        expect((await send(configured.url, 'POST', '/staked', { signer: rich })).status).toBe(201);
        const refused = await send(configured.url, 'POST', '/staked', { signer: poor });
        expect([refused.status, refused.body.detail?.observed]).toEqual([403, '0']);
      }
      expect(source.calls - before).toBe(2);
    });

    it('answers 503 chain_unavailable when the chain fails, and does not cache it', async () => {
      const [signer] = await signers('//Ferdie');
      source.stakes.set(signer.hotkey, 5n);
      source.reachable = false;
      const down = await send(configured.url, 'POST', '/staked', { signer });
      source.reachable = true;
      expect([down.status, down.body.detail?.error]).toEqual([503, ErrorCode.ChainUnavailable]);
      expect((await send(configured.url, 'POST', '/staked', { signer })).status).toBe(201);
    });

    it('lets every signed hotkey through when the stake check is off', async () => {
      const reply = await send(bare.url, 'POST', '/staked', { signer: charlie });
      expect(reply.status).toBe(201);
    });
  });

  it('reports whether the stake check is on through AuthStatus', async () => {
    expect((await send(configured.url, 'GET', '/readyz')).body).toEqual({ stake_check: 'on' });
    expect((await send(bare.url, 'GET', '/readyz')).body).toEqual({ stake_check: 'off' });
  });
});
