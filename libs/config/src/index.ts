export { ConfigError, EnvReader, LOG_LEVELS } from './env-reader';
