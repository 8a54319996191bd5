import { ConfigError, EnvReader, readServiceBaseConfig, ServiceBaseConfig } from '@rcs/http';

export type PoolServiceConfig = ServiceBaseConfig;

export function loadPoolServiceConfig(env: NodeJS.ProcessEnv): PoolServiceConfig {
  const read = new EnvReader(env);
  const config = readServiceBaseConfig(read, 'POOL_PORT', 8434);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** The one place this app reads the process environment. */
export function poolServiceConfigFromProcess(): PoolServiceConfig {
  return loadPoolServiceConfig(process.env);
}
