// The classification lives in @rcs/http, shared with the coordinator's artifact-URI check.
export { addressAllowed, classifyAddress, type AddressClass } from '@rcs/http';
