/** What `/readyz` reports about authentication. */
export class AuthStatus {
  constructor(readonly stakeCheck: 'on' | 'off') {}
}
