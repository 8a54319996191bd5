export * from './pool-validators';
export * from './assignments.dto';
export * from './miners.dto';
export * from './results.dto';
export * from './health.dto';
export * from './payout-claims.dto';
export * from './allocation-document';
