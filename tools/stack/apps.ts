/** The apps the local stack knows, in start order, with their port variable and default port. */
export interface StackApp {
  name: string;
  portVariable: string;
  defaultPort: number;
  healthPath: string;
  /** Whether it serves OpenAPI docs worth printing. */
  docs: boolean;
  /**
   * When Ctrl-C stops it: every app of a lower tier has exited first, so no app sees one it reads
   * from go away under it (0: the runner, the weight setter and the verifier, which read the others;
   * 1: the pool, which reads the coordinator's snapshot; 2: the coordinator).
   */
  stopTier: 0 | 1 | 2;
}

export const STACK_APPS: StackApp[] = [
  { name: 'coordinator-api', portVariable: 'COORDINATOR_PORT', defaultPort: 8000, healthPath: '/healthz', docs: true, stopTier: 2 },
  { name: 'pool-service', portVariable: 'POOL_PORT', defaultPort: 8434, healthPath: '/health', docs: true, stopTier: 1 },
  { name: 'validator-runner', portVariable: 'VALIDATOR_RUNNER_PORT', defaultPort: 8100, healthPath: '/healthz', docs: false, stopTier: 0 },
  { name: 'weight-setter', portVariable: 'WEIGHT_SETTER_PORT', defaultPort: 8200, healthPath: '/healthz', docs: false, stopTier: 0 },
  { name: 'payout-verifier', portVariable: 'PAYOUT_VERIFIER_PORT', defaultPort: 8500, healthPath: '/healthz', docs: false, stopTier: 0 },
];
