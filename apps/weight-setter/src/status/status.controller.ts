import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { errorText, type SubtensorPort } from '@rcs/chain';
import { WeightSetterStatusDto } from '@rcs/contracts';
import { REDIS, redisReady } from '@rcs/queue';
import type { WeightSetterConfig } from '../config/config';
import { OwnerLock } from '../weights/owner-lock';
import { OwnershipService } from '../weights/ownership.service';
import { PassStatusStore } from '../weights/pass-status.store';
import { SUBTENSOR, VALIDATOR_KEYPAIR, WEIGHTS_CONFIG } from '../weights/tokens';

interface Check {
  ok: boolean;
  error?: string;
  latest_block?: number;
}

export interface WeightSetterReadiness {
  status: 'ready' | 'not_ready';
  hotkey: string;
  /** `owner` sets weights; `standby` waits for the owner's lock to lapse. */
  role: 'owner' | 'standby';
  fencing_token: number | null;
  /** `on`: passes commit timelocked weights; `off`: they call `set_weights`; `unknown` while the chain does not answer. */
  commit_reveal: 'on' | 'off' | 'unknown';
  dry_run: boolean;
  checks: { redis: Check; chain: Check };
}

@ApiTags('weights')
@Controller()
export class StatusController {
  constructor(
    @Inject(WEIGHTS_CONFIG) private readonly config: WeightSetterConfig,
    @Inject(VALIDATOR_KEYPAIR) private readonly keypair: KeyringPair,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SUBTENSOR) private readonly chain: SubtensorPort,
    @Inject(OwnershipService) private readonly ownership: OwnershipService,
    @Inject(OwnerLock) private readonly lock: OwnerLock,
    @Inject(PassStatusStore) private readonly status: PassStatusStore,
  ) {}

  @Get('status')
  @ApiOkResponse({ type: WeightSetterStatusDto, description: 'The hotkey, whether this process owns it, and the last pass (DECISIONS §12).' })
  async getStatus(): Promise<WeightSetterStatusDto> {
    const stored = await this.status.read();
    return { hotkey: this.keypair.address, owner: this.ownership.owner, last_pass: stored.last_pass, next_allowed_block: stored.next_allowed_block, last_reveal: stored.last_reveal };
  }

  @Get('readyz')
  @ApiOkResponse({ description: 'Redis and the chain answer; says whether this process owns the hotkey or stands by.' })
  @ApiServiceUnavailableResponse({ description: 'Redis or the chain does not answer.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<WeightSetterReadiness> {
    const [redis, chain] = await Promise.all([redisReady(this.redis), this.chainReady()]);
    const ready = redis.ok && chain.check.ok;
    void reply.status(ready ? 200 : 503);
    return {
      status: ready ? 'ready' : 'not_ready',
      hotkey: this.keypair.address,
      role: this.ownership.owner ? 'owner' : 'standby',
      fencing_token: this.lock.token,
      commit_reveal: chain.commitReveal,
      dry_run: this.config.dryRun,
      checks: { redis, chain: chain.check },
    };
  }

  private async chainReady(): Promise<{ check: Check; commitReveal: WeightSetterReadiness['commit_reveal'] }> {
    try {
      const [latest, commitReveal] = await Promise.all([this.chain.latestBlock(), this.chain.commitRevealWeightsEnabled(this.config.chain.netuid)]);
      return { check: { ok: true, latest_block: latest }, commitReveal: commitReveal ? 'on' : 'off' };
    } catch (error) {
      return { check: { ok: false, error: errorText(error) }, commitReveal: 'unknown' };
    }
  }
}
