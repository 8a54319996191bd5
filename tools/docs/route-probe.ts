/**
 * Preloaded (`node -r`) into a service started from its own `main.ts`, so docs/routes.md lists what
 * the booted app really serves. It records every route Fastify registers (Nest's controllers and the
 * routes registered on Fastify directly: /metrics, /docs, …) with the caller that registered it, and
 * once the app listens writes them, each with the Nest controller that serves it, to
 * `ROUTE_PROBE_OUT` as JSON. Nothing else of the service changes; the generator stops it afterwards.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { INestApplication, Type } from '@nestjs/common';
import { NestApplication, NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { declaredAuthClass } from '@rcs/auth';
import { controllerRoutes, joinRoutePath } from '@rcs/testing';

/** What the probe writes: the app's routes and the environment variables the app's own code read while it booted. */
export interface ProbeResult {
  routes: ProbedRoute[];
  envReads: EnvRead[];
}

/** A variable read by this repository's code: where (the caller of `EnvReader`, for a read through it). */
export interface EnvRead {
  name: string;
  file: string;
  line: number;
}

/** One route as the probe saw it. */
export interface ProbedRoute {
  method: string;
  /** The full path, with the module's mount prefix (e.g. `/claims/epoch/:epoch`). */
  path: string;
  /** The `authClass` of the route's Fastify config, or of the Nest handler (or its controller). */
  authClass: string | null;
  /** The Nest controller class serving it, or null for a route registered on Fastify directly. */
  controller: string | null;
  /** The repository file defining the controller class, or, for a route registered on Fastify directly, the file whose code registered it. */
  source: string | null;
}

const ROOT = resolve(__dirname, '..', '..');

function joinPath(...parts: string[]): string {
  return `/${joinRoutePath(...parts)}`;
}

function repositoryFile(file: string): string | null {
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  if (path.includes('node_modules') || path === __filename || !path.startsWith(ROOT)) return null;
  return relative(ROOT, path).split('\\').join('/');
}

/** Where a class is defined, asked of V8 through the in-process inspector (a name alone is ambiguous: two `HealthController`s serve one app). */
function definingFile(fn: Type): string | null {
  const session = new Session();
  session.connect();
  const scripts = new Map<string, string>();
  session.on('Debugger.scriptParsed', (message) => scripts.set(message.params.scriptId, message.params.url));
  let file: string | null = null;
  // An in-process session answers synchronously: the callbacks below have run when post returns.
  session.post('Debugger.enable', () => undefined);
  const holder = globalThis as unknown as { __routeProbeSubject?: Type };
  holder.__routeProbeSubject = fn;
  session.post('Runtime.evaluate', { expression: 'globalThis.__routeProbeSubject' }, (error, evaluated) => {
    if (error || !evaluated.result.objectId) return;
    session.post('Runtime.getProperties', { objectId: evaluated.result.objectId }, (error2, properties) => {
      const location = properties?.internalProperties?.find((property) => property.name === '[[FunctionLocation]]')?.value?.value as { scriptId: string } | undefined;
      const url = location ? scripts.get(location.scriptId) : undefined;
      if (!error2 && url) file = repositoryFile(url);
    });
  });
  delete holder.__routeProbeSubject;
  session.disconnect();
  return file;
}

/**
 * Who registered the route being added, from the current stack: the first repository file outside
 * this probe, else the first package (`@nestjs/swagger` registers /docs and /openapi.json itself).
 */
function registeringFile(): string | null {
  let pkg: string | null = null;
  for (const line of (new Error().stack ?? '').split('\n').slice(1)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+\.[cm]?[jt]s):\d+:\d+\)?$/.exec(line.trim());
    if (!match) continue;
    const file = repositoryFile(match[1]);
    if (file !== null) return file;
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(match[1]);
    if (inPackage && pkg === null && !['fastify', 'avvio', '@nestjs/core', '@nestjs/platform-fastify'].includes(inPackage[1])) pkg = inPackage[1];
  }
  return pkg;
}

/** Where this repository's code read the environment just now, or null when the reader is Node's or a package's. */
function repositoryReader(): { file: string; line: number } | null {
  for (const line of (new Error().stack ?? '').split('\n').slice(2)) {
    const match = /\(?((?:file:\/\/|node:)?[^():\s]+):(\d+):\d+\)?$/.exec(line.trim());
    if (!match) continue;
    const raw = match[1];
    if (raw.startsWith('node:')) return null;
    const path = raw.startsWith('file:') ? fileURLToPath(raw) : raw;
    if (path === __filename) continue;
    if (path.includes('node_modules') || !path.startsWith(ROOT)) return null;
    const file = relative(ROOT, path).split('\\').join('/');
    // A read through EnvReader is the caller's.
    if (file === 'libs/config/src/env-reader.ts') {
      continue;
    }
    return { file, line: Number(match[2]) };
  }
  return null;
}

/** Every controller route of `app` from Nest's module container: full path (mount prefixes included) to controller and auth class. */
function nestRoutes(app: INestApplication): Map<string, { controller: string; source: string | null; authClass: string | null }> {
  const routes = new Map<string, { controller: string; source: string | null; authClass: string | null }>();
  const globalPrefix = (app as unknown as { config?: { getGlobalPrefix(): string } }).config?.getGlobalPrefix() ?? '';
  const sources = new Map<Type, string | null>();
  for (const { controller, handler, method, path, modulePath } of controllerRoutes(app)) {
    if (!sources.has(controller)) sources.set(controller, definingFile(controller));
    const authClass = declaredAuthClass(handler) ?? declaredAuthClass(controller) ?? null;
    routes.set(`${method} ${joinPath(globalPrefix, modulePath, path)}`, { controller: controller.name, source: sources.get(controller) ?? null, authClass });
  }
  return routes;
}

interface Registered {
  method: string;
  path: string;
  authClass: string | null;
  registeredBy: string | null;
}

const out = process.env['ROUTE_PROBE_OUT'];
// What Fastify registered, in order; written once the app listens.
const registered: Registered[] = [];
// Variables read by code of this repository (libraries' own reads, e.g. NODE_ENV, are not the apps' configuration).
const envReads = new Map<string, EnvRead>();
if (out) {
  const real = process.env;
  process.env = new Proxy(real, {
    get(target, key, receiver) {
      const reader = typeof key === 'string' && key !== 'ROUTE_PROBE_OUT' ? repositoryReader() : null;
      if (reader && typeof key === 'string') envReads.set(`${key} ${reader.file} ${reader.line}`, { name: key, ...reader });
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const create = NestFactory.create.bind(NestFactory) as (...args: unknown[]) => Promise<NestFastifyApplication>;
  (NestFactory as unknown as { create: typeof create }).create = async (...args: unknown[]) => {
    const app = await create(...args);
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRoute', (route) => {
        const config = (route.config ?? {}) as { authClass?: unknown };
        for (const method of [route.method].flat()) {
          registered.push({
            method,
            path: route.url,
            authClass: typeof config.authClass === 'string' ? config.authClass : null,
            registeredBy: registeringFile(),
          });
        }
      });
    return app;
  };
  // Nest's application proxy ignores assignments, so the probe wraps the class's own `listen`.
  const listen = NestApplication.prototype.listen as (this: NestApplication, ...a: unknown[]) => Promise<unknown>;
  NestApplication.prototype.listen = async function (this: NestApplication, ...a: unknown[]) {
    const result = await listen.apply(this, a);
    const nest = nestRoutes(this);
    const gets = new Set(registered.filter((route) => route.method === 'GET').map((route) => route.path));
    // Fastify adds a HEAD beside every GET by itself: not a route of ours.
    const routes: ProbedRoute[] = registered
      .filter((route) => !(route.method === 'HEAD' && gets.has(route.path)))
      .map((route) => {
        const served = nest.get(`${route.method} ${route.path}`);
        return served
          ? { method: route.method, path: route.path, authClass: route.authClass ?? served.authClass, controller: served.controller, source: served.source }
          : { method: route.method, path: route.path, authClass: route.authClass, controller: null, source: route.registeredBy };
      });
    const reads = [...envReads.values()].sort((a, b) => (a.name === b.name ? (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1) : a.name < b.name ? -1 : 1));
    const result2: ProbeResult = { routes, envReads: reads };
    writeFileSync(out, JSON.stringify(result2));
    return result;
  } as typeof NestApplication.prototype.listen;
}
