/** The verifier's config, its key pair (the challenger) and its HTTP reads. */
export const VERIFIER_CONFIG = Symbol('VERIFIER_CONFIG');
export const VERIFIER_KEYPAIR = Symbol('VERIFIER_KEYPAIR');
export const VERIFIER_INPUTS = Symbol('VERIFIER_INPUTS');
