import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { RewardSnapshotDto, UpdateRewardPolicyDto } from '@rcs/contracts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The problems of a `GET /api/v1/reward-snapshot` document against `RewardSnapshotDto` (empty when it
 * conforms): the fields a consumer computes with, and the policy by the class-validator rules of
 * `UpdateRewardPolicyDto`. Unknown properties are tolerated, so a newer coordinator does not break readers.
 */
export function rewardSnapshotProblems(document: unknown): string[] {
  if (!isObject(document)) return ['the snapshot is not a JSON object'];
  const problems: string[] = [];
  if (typeof document['generated_at'] !== 'string' || Number.isNaN(Date.parse(document['generated_at']))) problems.push('generated_at must be an ISO 8601 date-time');
  if (!isFiniteNumber(document['score_ema_days'])) problems.push('score_ema_days must be a number');
  if (!Array.isArray(document['competitions'])) problems.push('competitions must be an array');
  else {
    if (document['competition_count'] !== document['competitions'].length) problems.push('competition_count must equal the number of competitions');
    document['competitions'].forEach((competition: unknown, i) => problems.push(...competitionProblems(competition, `competitions[${i}]`)));
  }
  if (!isObject(document['reward_policy'])) problems.push('reward_policy must be an object');
  else {
    const policy = plainToInstance(UpdateRewardPolicyDto, document['reward_policy']);
    problems.push(...flatten(validateSync(policy, { forbidUnknownValues: false }), 'reward_policy'));
  }
  return problems;
}

/** The document typed as the contract's DTO once it has no problems. */
export function asRewardSnapshot(document: unknown): RewardSnapshotDto {
  return document as RewardSnapshotDto;
}

function competitionProblems(competition: unknown, at: string): string[] {
  if (!isObject(competition)) return [`${at} must be an object`];
  const problems: string[] = [];
  for (const field of ['competition_id', 'slug'] as const) if (typeof competition[field] !== 'string') problems.push(`${at}.${field} must be a string`);
  if (!isFiniteNumber(competition['weight']) || competition['weight'] < 0) problems.push(`${at}.weight must be a number >= 0`);
  const miners = competition['miners'];
  if (!Array.isArray(miners)) return [...problems, `${at}.miners must be an array`];
  miners.forEach((miner: unknown, j) => {
    if (!isObject(miner) || typeof miner['miner_hotkey'] !== 'string' || !isFiniteNumber(miner['score']) || miner['score'] <= 0) {
      problems.push(`${at}.miners[${j}] must be {miner_hotkey: string, score: number > 0}`);
    }
  });
  return problems;
}

function flatten(errors: ValidationError[], path: string): string[] {
  return errors.flatMap((error) => {
    const at = `${path}.${error.property}`;
    return [...Object.values(error.constraints ?? {}).map((message) => `${at}: ${message}`), ...flatten(error.children ?? [], at)];
  });
}
