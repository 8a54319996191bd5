import { EntityManager } from 'typeorm';
import { CompetitionMode, PeerConsensusDto, PeerEvaluationDto } from '@rcs/contracts';
import { isUuid } from '../common/ids';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { TaskEntity } from '../tasks/entities/task.entity';
import { toPeerConsensusDto, toPeerEvaluationDto } from './peer-evaluation.mapper';
import { countsOf, evaluationsOf } from './peer-evaluation.repository';

/** What the submission detail shows of peer evaluation; both read through the caller's manager. */

/** The submission's peer evaluations, newest first; empty for an unknown id. */
export async function peerEvaluationsForSubmission(manager: EntityManager, submissionId: string): Promise<PeerEvaluationDto[]> {
  if (!isUuid(submissionId)) return [];
  return (await evaluationsOf(manager, submissionId)).map(toPeerEvaluationDto);
}

/** The peer consensus of the submission; null for an unknown id and on tasks that are not peer_evaluation. */
export async function peerConsensusFor(manager: EntityManager, submissionId: string): Promise<PeerConsensusDto | null> {
  const submission = isUuid(submissionId) ? await manager.findOneBy(SubmissionEntity, { id: submissionId }) : null;
  if (submission === null) return null;
  const task = await manager.findOneByOrFail(TaskEntity, { id: submission.taskId });
  if (task.competitionMode !== CompetitionMode.PeerEvaluation) return null;
  return toPeerConsensusDto(submission, task, await countsOf(manager, submission.id));
}
