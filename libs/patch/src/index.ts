export { checkPatch, patchViolationItems, type PatchCheckResult, type PatchRules, type PatchViolation, type PatchViolationType } from './check-patch';
export { compileGlob, matchesGlob } from './glob';
export { parsePatch, PatchParseError, type PatchFile, type PatchFileStatus } from './parse-patch';
export { isBytecodePath, MAX_PATCH_PATH_LENGTH, normalisePatchPath, type NormalisedPatchPath, type PatchPathProblem } from './patch-path';
export { readQuotedName, type QuotedName } from './quoted-name';
