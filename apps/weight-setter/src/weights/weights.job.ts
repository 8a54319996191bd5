import { Inject, Injectable } from '@nestjs/common';
import { QueueName, WeightsJob, type SetWeightsData, type WeightsPassDto } from '@rcs/contracts';
import { WeightsPassService } from './weights-pass.service';
import { OnWeightSetterJob } from './weights-jobs';

/** The `weights.set` job: one pass per interval. */
@Injectable()
export class WeightsJobHandler {
  constructor(@Inject(WeightsPassService) private readonly pass: WeightsPassService) {}

  @OnWeightSetterJob(QueueName.Weights, WeightsJob.SetWeights)
  setWeights(data: SetWeightsData): Promise<WeightsPassDto> {
    return this.pass.run(data.interval);
  }
}
