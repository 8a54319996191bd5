import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_PATH, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';

/** One handler of a booted Nest app's controllers, as its metadata declares it. */
export interface ControllerRoute {
  controller: Type;
  /** The handler method (where its route decorators put their metadata). */
  handler: object;
  /** `GET`, `POST`, … */
  method: string;
  /** The controller's path joined with the handler's, without a leading slash (no module mount path, no global prefix). */
  path: string;
  /** The path its module is mounted at (`RouterModule`), '' when none. */
  modulePath: string;
}

/** Joins route path parts, dropping empty ones and stray slashes: `('api/v1/', '/tasks')` → `api/v1/tasks`. */
export function joinRoutePath(...parts: string[]): string {
  return parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '')
    .join('/');
}

/** Every handler of every controller of `app`, module by module, walked from Nest's module container. */
export function controllerRoutes(app: INestApplication): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  const container = app.get(ModulesContainer);
  for (const module of container.values()) {
    const modulePath =
      (Reflect.getMetadata(MODULE_PATH + container.applicationId, module.metatype) as string | undefined) ??
      (Reflect.getMetadata(MODULE_PATH, module.metatype) as string | undefined) ??
      '';
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined) ?? '';
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        for (const b of [base].flat()) {
          for (const p of [path].flat()) routes.push({ controller, handler, method, path: joinRoutePath(b, p), modulePath });
        }
      }
    }
  }
  return routes;
}
