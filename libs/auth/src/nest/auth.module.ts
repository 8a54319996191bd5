import {
  Global,
  Module,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type Provider,
  type Type,
} from '@nestjs/common';
import { AdminTokenChecker } from '../admin-token';
import { ReplayGuardStore } from '../replay-guard.store';
import { AdminGuard } from './admin.guard';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { AuthStatus } from './auth-status';
import { RequestAuthenticator } from './request-authenticator';
import { SignedGuard } from './signed.guard';
import { StakeGate } from './stake-gate';
import { StakeGatedGuard } from './stake-gated.guard';
import { ValidatorGuard } from './validator.guard';

export interface AuthModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  // never[] admits a factory of any parameter list, typed by the caller.
  useFactory: (...args: never[]) => AuthOptions | Promise<AuthOptions>;
}

function fromOptions<T>(provide: Type<T>, make: (options: AuthOptions) => T): FactoryProvider<T> {
  return { provide, useFactory: make, inject: [AUTH_OPTIONS] };
}

/** What checks a request: the authenticator, the stake gate and the guards of each auth class. */
const REQUEST_AUTH = [RequestAuthenticator, StakeGate, SignedGuard, AdminGuard, ValidatorGuard, StakeGatedGuard];

/** Auth guards and their services plus `AuthStatus`, available to every module of the app. */
@Global()
@Module({})
export class AuthModule {
  static forRootAsync(options: AuthModuleAsyncOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: AUTH_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
      fromOptions(ReplayGuardStore, (o) => new ReplayGuardStore(o.redis, o.replayKeyPrefix)),
      fromOptions(AdminTokenChecker, (o) => new AdminTokenChecker(o)),
      fromOptions(AuthStatus, (o) => new AuthStatus(o.stake === null ? 'off' : 'on')),
      ...REQUEST_AUTH,
    ];
    return {
      module: AuthModule,
      imports: options.imports ?? [],
      providers,
      exports: [AUTH_OPTIONS, ReplayGuardStore, AdminTokenChecker, AuthStatus, ...REQUEST_AUTH],
    };
  }
}
