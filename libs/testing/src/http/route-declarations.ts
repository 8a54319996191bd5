import type { INestApplication, Type } from '@nestjs/common';
import { AUTH_CLASS_ERRORS, type AuthClass, declaredAuthClass } from '@rcs/auth';
import { type ErrorCode, declaredErrors } from '@rcs/contracts';
import { controllerRoutes } from './controller-routes';

/** One route of a booted Nest app with what it declares. */
export interface RouteDeclaration {
  /** e.g. `POST api/v1/tasks/:task_id/claim` */
  route: string;
  authClass: AuthClass | undefined;
  errors: ErrorCode[] | undefined;
}

/** Every route of `app`'s controllers, walked from Nest's module container, with its declarations. */
export function routeDeclarations(app: INestApplication): RouteDeclaration[] {
  const routes: RouteDeclaration[] = [];
  const seen = new Map<Type, Set<string>>();
  for (const { controller, handler, method, path } of controllerRoutes(app)) {
    // A controller listed by two modules is one set of routes.
    const route = `${method} ${path}`;
    const ofController = seen.get(controller) ?? new Set<string>();
    seen.set(controller, ofController);
    if (ofController.has(route)) continue;
    ofController.add(route);
    routes.push({
      route,
      authClass: declaredAuthClass(handler) ?? declaredAuthClass(controller),
      errors: declaredErrors(handler),
    });
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
