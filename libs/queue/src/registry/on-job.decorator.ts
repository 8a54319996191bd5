import { Reflector } from '@nestjs/core';

export interface JobRef {
  queue: string;
  name: string;
}

/**
 * Marks a provider method as the handler of one job: `(data, job) => result`. The method's return
 * value becomes the job's result (JSON), a throw fails the job.
 */
export const OnJob = Reflector.createDecorator<JobRef>();
