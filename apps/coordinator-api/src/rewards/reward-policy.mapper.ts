import { RewardPolicyDto, RewardPolicyVersionDto } from '@rcs/contracts';
import { RewardPolicyEntity } from './entities/reward-policy.entity';
import { RewardPolicyBody, rewardPolicyBody, RewardPolicyDocument } from './reward-policy.defaults';

/** A stored row as the policy in force; the stored body was written complete, from a validated DTO. */
export function toRewardPolicyDocument(entity: RewardPolicyEntity): RewardPolicyDocument {
  return { ...rewardPolicyBody(entity.document as RewardPolicyBody), updatedAt: entity.createdAt };
}

export function toRewardPolicyDto(document: RewardPolicyDocument): RewardPolicyDto {
  return { ...rewardPolicyBody(document), updated_at: document.updatedAt.toISOString() };
}

export function toRewardPolicyVersionDto(entity: Pick<RewardPolicyEntity, 'version' | 'createdAt'>): RewardPolicyVersionDto {
  return { version: entity.version, updated_at: entity.createdAt.toISOString() };
}
