import { ConfigError, EnvReader, readServiceBaseConfig, ServiceBaseConfig } from '@rcs/http';

export type WeightSetterConfig = ServiceBaseConfig;

export function loadWeightSetterConfig(env: NodeJS.ProcessEnv): WeightSetterConfig {
  const read = new EnvReader(env);
  const config = readServiceBaseConfig(read, 'WEIGHT_SETTER_PORT', 8200);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** The one place this app reads the process environment. */
export function weightSetterConfigFromProcess(): WeightSetterConfig {
  return loadWeightSetterConfig(process.env);
}
