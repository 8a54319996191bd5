import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ClaimExpiryJob } from './claim-expiry.job';
import { ClaimsController } from './claims.controller';
import { ClaimsService } from './claims.service';

@Module({
  imports: [RateLimitModule],
  controllers: [ClaimsController],
  providers: [ClaimsService, ClaimExpiryJob],
  exports: [ClaimsService],
})
export class ClaimsModule {}

/** What other domains use of claims: always inside their own transaction, through its manager. */
export { expireStaleClaims, submitActiveClaim, type SubmittedClaimTask } from './claims.repository';
