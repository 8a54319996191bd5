/** The validated configuration. */
export const WEIGHTS_CONFIG = Symbol('WEIGHTS_CONFIG');
/** The pino logger of passes and ownership changes. */
export const WEIGHTS_LOGGER = Symbol('WEIGHTS_LOGGER');
/** The validator's sr25519 key pair (signs `set_weights`). */
export const VALIDATOR_KEYPAIR = Symbol('VALIDATOR_KEYPAIR');
/** The `SubtensorPort` the setter reads and writes. */
export const SUBTENSOR = Symbol('SUBTENSOR');
/** The wall clock (epoch ms) a pass times its reveal round by; tests set it. */
export const WEIGHTS_CLOCK = Symbol('WEIGHTS_CLOCK');
