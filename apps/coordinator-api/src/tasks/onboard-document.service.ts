import { Inject, Injectable } from '@nestjs/common';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { renderOnboardDocument } from './onboard-document';
import { toTaskDto } from './task.mapper';
import { TasksService } from './tasks.service';

/** A task's onboarding document: the stored task with the protocol parameters a miner needs (claim TTL, signature skew). */
@Injectable()
export class OnboardDocumentService {
  constructor(
    private readonly tasks: TasksService,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {}

  /** The task's onboarding Markdown, with URLs under `baseUrl`; 404 `task_not_found` like TasksService.get. */
  async render(taskId: string, baseUrl: string): Promise<string> {
    const task = await this.tasks.get(taskId);
    return renderOnboardDocument(
      { ...toTaskDto(task), onboard_md: task.onboardMd, base_commit_sha: task.baseCommitSha },
      { baseUrl, claimTtlSeconds: this.config.claimTtlSeconds, authMaxSkewSeconds: this.config.authMaxSkewSeconds },
    );
  }
}
