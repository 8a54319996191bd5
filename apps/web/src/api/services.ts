import type {
  AllocationDocument,
  BestResultChangeDto,
  BestResultDto,
  ClaimedCumulativeDto,
  ClaimEpochDto,
  ClaimEpochListDto,
  ClaimPackageDto,
  DashboardDto,
  DisclaimerDto,
  IdeaRewardDto,
  LeaderboardEntryDto,
  MinerResultsDto,
  OnchainStatusDto,
  PeerConsensusDto,
  PoolStatusDto,
  RecipientDto,
  RewardSnapshotDto,
  SotaDto,
  TaskDto,
  VerificationSummaryDto,
  WeightSetterStatusDto,
} from '@rcs/contracts';
import { takeEarlyJson } from './early';
import { getJson, getText, joinUrl, ServiceError } from './http';

/**
 * `config.json` next to index.html: where the coordinator and the pool answer, and optionally the
 * weight setter (its `/status` gives the weights set on chain) and the validator runner (its health).
 */
export interface WebConfig {
  coordinator: string;
  pool: string;
  weightSetter: string | null;
  runner: string | null;
}

/** What `GET /readyz` answers (200 ready, 503 not ready, same body). */
export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: Record<string, { ok: boolean; error?: string; latest_block?: number }>;
  stake_check?: 'on' | 'off';
}

/** The pool's claim routes are mounted under this prefix (the pool's CLAIMS_MOUNT_PREFIX default). */
export const CLAIMS_PREFIX = '/claims';
const enc = encodeURIComponent;

/** The coordinator's public reads the pages use. */
export class Coordinator {
  constructor(readonly baseUrl: string) {}

  /** The first read takes the one index.html sent early (when it went to this coordinator). */
  dashboard = async () =>
    (await takeEarlyJson<DashboardDto>(joinUrl(this.baseUrl, '/api/v1/dashboard'))) ?? getJson<DashboardDto>(this.baseUrl, '/api/v1/dashboard');
  task = (id: string) => getJson<TaskDto>(this.baseUrl, `/api/v1/tasks/${enc(id)}`);
  history = (id: string) => getJson<BestResultChangeDto[]>(this.baseUrl, `/api/v1/tasks/${enc(id)}/best/history?limit=1000`);
  verifications = (query: string) => getJson<VerificationSummaryDto[]>(this.baseUrl, `/api/v1/verifications?${query}`);
  ideaRewards = (taskId: string) => getJson<IdeaRewardDto[]>(this.baseUrl, `/api/v1/idea-rewards?task_id=${enc(taskId)}&limit=100`);
  peerConsensus = (submissionId: string) => getJson<PeerConsensusDto>(this.baseUrl, `/api/v1/submissions/${enc(submissionId)}/peer-consensus`);
  /** A miner's accepted results per competition (any SS58 spelling; the answer names the canonical one). */
  minerResults = (hotkey: string) => getJson<MinerResultsDto>(this.baseUrl, `/api/v1/miners/${enc(hotkey)}/results?limit=1000`);
  rewardSnapshot = () => getJson<RewardSnapshotDto>(this.baseUrl, '/api/v1/reward-snapshot');
  disclaimer = () => getJson<DisclaimerDto>(this.baseUrl, '/api/v1/disclaimer');
  readiness = () => getJson<Readiness>(this.baseUrl, '/readyz', { allow: [503] });
  onchain = () => getJson<OnchainStatusDto>(this.baseUrl, '/api/v1/onchain/status');
  onboard = (id: string) => getText(this.baseUrl, `/api/v1/tasks/${enc(id)}/onboard.md`);
  onboardUrl = (id: string) => `${this.baseUrl.replace(/\/+$/, '')}/api/v1/tasks/${enc(id)}/onboard.md`;
  eventsUrl = () => `${this.baseUrl.replace(/\/+$/, '')}/api/v1/events`;

  /** The current best, or null before the first accepted result (404 best_result_not_found). */
  async best(id: string): Promise<BestResultDto | null> {
    try {
      return await getJson<BestResultDto>(this.baseUrl, `/api/v1/tasks/${enc(id)}/best`);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'best_result_not_found') return null;
      throw error;
    }
  }
}

/** The pool's public reads the pages use. */
export class Pool {
  constructor(readonly baseUrl: string) {}

  leaderboard = () => getJson<LeaderboardEntryDto[]>(this.baseUrl, '/api/v1/miners/leaderboard?limit=100');
  sota = (taskType?: string) => getJson<SotaDto>(this.baseUrl, `/api/v1/results/sota${taskType ? `?task_type=${enc(taskType)}` : ''}`);
  epochs = () => getJson<ClaimEpochListDto>(this.baseUrl, `${CLAIMS_PREFIX}/epochs`);
  epoch = (epoch: number) => getJson<ClaimEpochDto>(this.baseUrl, `${CLAIMS_PREFIX}/epoch/${epoch}`);
  claimPackage = (epoch: number, hotkey: string) => getJson<ClaimPackageDto>(this.baseUrl, `${CLAIMS_PREFIX}/epoch/${epoch}/claim/${enc(hotkey)}`);
  status = () => getJson<PoolStatusDto>(this.baseUrl, '/status');
  allocation = (epoch: number) => getJson<AllocationDocument>(this.baseUrl, `${CLAIMS_PREFIX}/epoch/${epoch}/allocation`);
  /** The recipient the pool holds for a hotkey, or null when the pool has never seen it (404 hotkey_not_found). */
  recipient = (hotkey: string) => orNull(getJson<RecipientDto>(this.baseUrl, `/api/v1/miners/recipient-coldkey/${enc(hotkey)}`), 'hotkey_not_found');
  /** One miner's leaderboard entry wherever it ranks, or null when the pool has never seen it (404 hotkey_not_found). */
  standing = (hotkey: string) => orNull(getJson<LeaderboardEntryDto>(this.baseUrl, `/api/v1/miners/${enc(hotkey)}/standing`), 'hotkey_not_found');
  /** The claim package, or null when the hotkey has no leaf in that epoch (no recipient yet, or nothing earned). */
  claimPackageOrNull = (epoch: number, hotkey: string) => orNull(this.claimPackage(epoch, hotkey), 'hotkey_not_in_epoch');
  /** What the claim contract has paid the hotkey (rao, decimal), or null when the pool cannot say now (the contract unreadable: 503). */
  claimed = (hotkey: string) =>
    getJson<ClaimedCumulativeDto>(this.baseUrl, `${CLAIMS_PREFIX}/claimed/${enc(hotkey)}`).then(
      (body) => body.claimed_cumulative,
      (error: unknown) => {
        if (error instanceof ServiceError && error.status === 503) return null;
        throw error;
      },
    );
  disclaimer = () => getJson<DisclaimerDto>(this.baseUrl, '/api/v1/disclaimer');
  allocationUrl = (epoch: number) => `${this.baseUrl.replace(/\/+$/, '')}${CLAIMS_PREFIX}/epoch/${epoch}/allocation`;
  eventsUrl = () => `${this.baseUrl.replace(/\/+$/, '')}/api/v1/events`;
}

/** The weight setter's public status (DECISIONS §12). */
export class WeightSetter {
  constructor(readonly baseUrl: string) {}
  status = () => getJson<WeightSetterStatusDto>(this.baseUrl, '/status');
  readiness = () => getJson<{ status: 'ready' | 'not_ready'; role?: string; dry_run?: boolean; commit_reveal?: string }>(this.baseUrl, '/readyz', { allow: [503] });
}

/** The validator runner answers its liveness route only. */
export class Runner {
  constructor(readonly baseUrl: string) {}
  health = () => getJson<{ status: string; service: string; version: string }>(this.baseUrl, '/healthz');
}

/** A read whose `code` error means "none": null instead of the error. */
async function orNull<T>(read: Promise<T>, code: string): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    // A route that is not there answers 404 `not_found` (or a bare 404 from a proxy).
    if (error instanceof ServiceError && (error.code === code || (code === 'not_found' && error.status === 404))) return null;
    throw error;
  }
}

/** Reads and checks `config.json`: the coordinator's and the pool's URLs are required, the weight setter's and the runner's optional. */
export function parseConfig(value: unknown): WebConfig {
  const read = (key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);
  const ok = (key: string): string => {
    const v = read(key);
    if (typeof v !== 'string' || !/^https?:\/\//.test(v)) throw new ServiceError(null, 'bad_config', `config.json needs "${key}": an http(s) base URL`);
    return v;
  };
  const optional = (key: string): string | null => (read(key) === undefined || read(key) === null ? null : ok(key));
  return { coordinator: ok('coordinator'), pool: ok('pool'), weightSetter: optional('weight_setter'), runner: optional('validator_runner') };
}
