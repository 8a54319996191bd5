import { Inject, Injectable } from '@nestjs/common';
import { QueueName, WeightsJob, type SetWeightsData, type WeightsPassDto } from '@rcs/contracts';
import { OnJob } from '@rcs/queue';
import { WeightsPassService } from './weights-pass.service';

/** The `weights.set` job: one pass per interval. */
@Injectable()
export class WeightsJobHandler {
  constructor(@Inject(WeightsPassService) private readonly pass: WeightsPassService) {}

  @OnJob({ queue: QueueName.Weights, name: WeightsJob.SetWeights })
  setWeights(data: SetWeightsData): Promise<WeightsPassDto> {
    return this.pass.run(data.interval);
  }
}
