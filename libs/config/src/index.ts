export { ConfigError, EnvReader, LOG_LEVELS } from './env-reader';
export { readRedisUrl } from './redis-url';
