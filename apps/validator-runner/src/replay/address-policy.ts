// The classification moved to @rcs/http, shared with the coordinator's artifact-URI check (issue 9 §5).
export { addressAllowed, classifyAddress, type AddressClass } from '@rcs/http';
