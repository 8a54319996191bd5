import { Module } from '@nestjs/common';
import { createHealthController } from '@rcs/http';

@Module({
  controllers: [createHealthController('validator-runner', '0.1.0', ['healthz'])],
})
export class AppModule {}
