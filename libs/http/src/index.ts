// Moved to @rcs/config; re-exported so that existing imports keep working.
export { ConfigError, EnvReader, LOG_LEVELS } from '@rcs/config';
export * from './error-response';
export * from './error.filter';
export * from './health.controller';
export * from './http-app';
export * from './json-body';
export * from './logger';
export * from './net/address-policy';
export * from './net/artifact-uri';
export * from './net/trusted-proxies';
export * from './low-level-errors';
export * from './openapi';
export * from './service';
export * from './validation';
export * from './dependency-errors';
