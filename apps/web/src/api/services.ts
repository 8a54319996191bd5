import type {
  BestResultChangeDto,
  BestResultDto,
  ClaimEpochDto,
  ClaimEpochListDto,
  ClaimPackageDto,
  DashboardDto,
  DisclaimerDto,
  IdeaRewardDto,
  LeaderboardEntryDto,
  OnchainStatusDto,
  PeerConsensusDto,
  PoolStatusDto,
  RewardSnapshotDto,
  SotaDto,
  TaskDto,
  VerificationSummaryDto,
} from '@rcs/contracts';
import { takeEarlyJson } from './early';
import { getJson, joinUrl, ServiceError } from './http';

/** `config.json` next to index.html: where the coordinator and the pool answer. */
export interface WebConfig {
  coordinator: string;
  pool: string;
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
  rewardSnapshot = () => getJson<RewardSnapshotDto>(this.baseUrl, '/api/v1/reward-snapshot');
  disclaimer = () => getJson<DisclaimerDto>(this.baseUrl, '/api/v1/disclaimer');
  readiness = () => getJson<Readiness>(this.baseUrl, '/readyz', { allow: [503] });
  onchain = () => getJson<OnchainStatusDto>(this.baseUrl, '/api/v1/onchain/status');
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
  disclaimer = () => getJson<DisclaimerDto>(this.baseUrl, '/api/v1/disclaimer');
  allocationUrl = (epoch: number) => `${this.baseUrl.replace(/\/+$/, '')}${CLAIMS_PREFIX}/epoch/${epoch}/allocation`;
  eventsUrl = () => `${this.baseUrl.replace(/\/+$/, '')}/api/v1/events`;
}

/** Reads and checks `config.json`; both URLs are required. */
export function parseConfig(value: unknown): WebConfig {
  const ok = (key: string): string => {
    const v = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof v !== 'string' || !/^https?:\/\//.test(v)) throw new ServiceError(null, 'bad_config', `config.json needs "${key}": an http(s) base URL`);
    return v;
  };
  return { coordinator: ok('coordinator'), pool: ok('pool') };
}
