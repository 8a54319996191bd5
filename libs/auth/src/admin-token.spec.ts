import { createHash } from 'node:crypto';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { AdminTokenChecker, AdminTokenConfigError } from './admin-token';

function codeOf(fn: () => void): [number, string] | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return [error.status, error.code];
  }
}

describe('AdminTokenChecker', () => {
  const digest = createHash('sha256').update('hashed-secret').digest('hex');

  it('answers 503 admin_unconfigured when no token is configured', () => {
    const checker = new AdminTokenChecker({ adminTokens: [''], adminTokenSha256: [] });
    expect(checker.configured).toBe(false);
    expect(codeOf(() => checker.assertValid('anything'))).toEqual([503, ErrorCode.AdminUnconfigured]);
    expect(codeOf(() => checker.assertValid(''))).toEqual([503, ErrorCode.AdminUnconfigured]);
  });

  it('accepts plain and digest-configured tokens', () => {
    const checker = new AdminTokenChecker({ adminTokens: ['plain-secret'], adminTokenSha256: [digest.toUpperCase()] });
    expect(codeOf(() => checker.assertValid('plain-secret'))).toBeUndefined();
    expect(codeOf(() => checker.assertValid('hashed-secret'))).toBeUndefined();
  });

  it('answers 401 invalid_admin_token for wrong, empty or missing tokens', () => {
    const checker = new AdminTokenChecker({ adminTokens: ['plain-secret', ''], adminTokenSha256: [digest] });
    for (const token of ['plain-secre', 'plain-secret ', digest, '', undefined]) {
      expect(codeOf(() => checker.assertValid(token))).toEqual([401, ErrorCode.InvalidAdminToken]);
    }
  });

  it('refuses digests that are not 64 hex digits', () => {
    expect(() => new AdminTokenChecker({ adminTokens: [], adminTokenSha256: ['abc'] })).toThrow(AdminTokenConfigError);
  });
});
