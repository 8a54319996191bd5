export * from './errors';
export * from './http-client';
export * from './bounded-body';
export * from './reward-snapshot.check';
export * from './coordinator.client';
export * from './validator-answers.check';
export * from './coordinator-routes';
export * from './pool.client';
