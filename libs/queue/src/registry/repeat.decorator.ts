import { Reflector } from '@nestjs/core';

export interface RepeatRef {
  /** The BullMQ job scheduler's id: one schedule however many replicas keep it. */
  schedulerId: string;
  /** The interval, read from the app's config (the one its schedule keeper is given). */
  everySeconds: (config: unknown) => number;
}

/**
 * Declares that the job of this `@OnJob` method runs on a repeatable schedule, with data `{}`; the
 * app's schedule keeper finds it at boot and keeps it. Use it typed by the app's catalog and config:
 * `repeatOf<AppJobs, AppConfig>()`.
 */
export const Repeat = Reflector.createDecorator<RepeatRef>();
