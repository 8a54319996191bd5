import { Module } from '@nestjs/common';
import { createHealthController } from '@rcs/http';

@Module({
  controllers: [createHealthController('pool-service', '0.1.0', ['health', 'healthz'])],
})
export class AppModule {}
