/** The runner's validated configuration. */
export const RUNNER_CONFIG = Symbol('RUNNER_CONFIG');
/** The pino logger of replay, post and scan lines. */
export const RUNNER_LOGGER = Symbol('RUNNER_LOGGER');
/** The accelerators found at start-up (see detectAccelerators). */
export const RUNNER_ACCELERATORS = Symbol('RUNNER_ACCELERATORS');
