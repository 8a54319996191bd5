/** Injection token of the `SubtensorPort`. */
export const SUBTENSOR_PORT = Symbol('SUBTENSOR_PORT');
/** Injection token of the `ClaimContractPort`. */
export const CLAIM_CONTRACT_PORT = Symbol('CLAIM_CONTRACT_PORT');
/** Injection token of the `DevChain` (null unless `CHAIN=dev`), for admin calls that seed stakes and uids. */
export const DEV_CHAIN = Symbol('DEV_CHAIN');
