import { ConfigError, EnvReader, readServiceBaseConfig, ServiceBaseConfig } from '@rcs/http';

export type ValidatorRunnerConfig = ServiceBaseConfig;

export function loadValidatorRunnerConfig(env: NodeJS.ProcessEnv): ValidatorRunnerConfig {
  const read = new EnvReader(env);
  const config = readServiceBaseConfig(read, 'VALIDATOR_RUNNER_PORT', 8100);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** The one place this app reads the process environment. */
export function validatorRunnerConfigFromProcess(): ValidatorRunnerConfig {
  return loadValidatorRunnerConfig(process.env);
}
