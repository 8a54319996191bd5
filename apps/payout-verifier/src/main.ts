import 'reflect-metadata';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { payoutVerifierConfigFromProcess } from './config/config';

void runService(AppModule, {
  name: 'payout-verifier',
  loadConfig: payoutVerifierConfigFromProcess,
  links: { status: '/status' },
  openApi: { title: 'Payout Verifier', description: 'Recomputes every published payout epoch from its inputs and challenges a wrong one (DECISIONS §16).', version: '0.1.0' },
});
