import { ApiError, ErrorCode } from '@rcs/contracts';
import { assertOwner } from './principal';

describe('assertOwner', () => {
  it('lets the owner and admins through', () => {
    expect(() => assertOwner({ kind: 'hotkey', hotkey: 'owner' }, 'owner', ErrorCode.NotClaimOwner)).not.toThrow();
    expect(() => assertOwner({ kind: 'admin' }, 'owner', ErrorCode.NotSubmissionOwner)).not.toThrow();
  });

  it.each([ErrorCode.NotClaimOwner, ErrorCode.NotSubmissionOwner] as const)('refuses others with 403 %s', (code) => {
    const act = (): void => assertOwner({ kind: 'hotkey', hotkey: 'intruder' }, 'owner', code);
    expect(act).toThrow(ApiError);
    expect(act).toThrow(expect.objectContaining({ status: 403, code }));
  });
});
