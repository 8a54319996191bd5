export * from './pool-validators';
export * from './pool-requests.dto';
export * from './pool-responses.dto';
export * from './claims.dto';
export * from './allocation-document';
