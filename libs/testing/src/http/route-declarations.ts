import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { AUTH_CLASS_ERRORS, type AuthClass, declaredAuthClass } from '@rcs/auth';
import { type ErrorCode, declaredErrors } from '@rcs/contracts';

/** One route of a booted Nest app with what it declares. */
export interface RouteDeclaration {
  /** e.g. `POST api/v1/tasks/:task_id/claim` */
  route: string;
  authClass: AuthClass | undefined;
  errors: ErrorCode[] | undefined;
}

function joinPath(...parts: string[]): string {
  return parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '')
    .join('/');
}

/** Every route of `app`'s controllers, walked from Nest's module container, with its declarations. */
export function routeDeclarations(app: INestApplication): RouteDeclaration[] {
  const routes: RouteDeclaration[] = [];
  const seen = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined) ?? '';
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const paths = [base].flat().flatMap((b) => [path].flat().map((p) => joinPath(b, p)));
        for (const full of paths) {
          routes.push({
            route: `${method} ${full}`,
            authClass: declaredAuthClass(handler) ?? declaredAuthClass(controller),
            errors: declaredErrors(handler),
          });
        }
      }
    }
  }
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}

/**
 * What is missing from the routes' declarations: an auth class, an `@ApiErrors(...)` list, or (on a
 * guarded route) the credential errors of its auth class. Empty when every route declares both.
 */
export function routeDeclarationGaps(app: INestApplication): string[] {
  const gaps: string[] = [];
  for (const { route, authClass, errors } of routeDeclarations(app)) {
    if (authClass === undefined) gaps.push(`${route}: no auth class (@Public(), @Signed(), ...)`);
    if (errors === undefined) gaps.push(`${route}: no @ApiErrors(...)`);
    if (authClass !== undefined && errors !== undefined) {
      const missing = AUTH_CLASS_ERRORS[authClass].filter((code) => !errors.includes(code));
      if (missing.length > 0) gaps.push(`${route}: ${authClass} route does not declare ${missing.join(', ')}`);
    }
  }
  return gaps;
}
