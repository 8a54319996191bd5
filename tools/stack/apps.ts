/** The apps the local stack knows, in start order, with their port variable and default port. */
export interface StackApp {
  name: string;
  portVariable: string;
  defaultPort: number;
  healthPath: string;
  /** Whether it serves OpenAPI docs worth printing. */
  docs: boolean;
}

export const STACK_APPS: StackApp[] = [
  { name: 'coordinator-api', portVariable: 'COORDINATOR_PORT', defaultPort: 8000, healthPath: '/healthz', docs: true },
  { name: 'pool-service', portVariable: 'POOL_PORT', defaultPort: 8434, healthPath: '/health', docs: true },
  { name: 'validator-runner', portVariable: 'VALIDATOR_RUNNER_PORT', defaultPort: 8100, healthPath: '/healthz', docs: false },
  { name: 'weight-setter', portVariable: 'WEIGHT_SETTER_PORT', defaultPort: 8200, healthPath: '/healthz', docs: false },
  { name: 'payout-verifier', portVariable: 'PAYOUT_VERIFIER_PORT', defaultPort: 8500, healthPath: '/healthz', docs: false },
];
