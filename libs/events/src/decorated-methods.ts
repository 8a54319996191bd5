import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

/** A metadata decorator made with `Reflector.createDecorator<T>()`. */
export type MethodDecoratorOf<T> = ReturnType<typeof Reflector.createDecorator<T>>;

export interface DecoratedMethod<T> {
  /** What the decorator recorded on the method. */
  meta: T;
  /** `Provider.method`, for logs. */
  source: string;
  /** Calls the method on its provider instance. */
  call: (...args: unknown[]) => unknown;
  /** What another decorator recorded on the same method, if it carries that one too. */
  metaOf: <U>(other: MethodDecoratorOf<U>) => U | undefined;
}

/**
 * Finds the methods carrying one metadata decorator on the application's (singleton) providers, at
 * boot: what `@OnEvent` (here) and `@OnJob` (`@rcs/queue`) handlers are discovered with.
 */
@Injectable()
export class DecoratedMethods {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  find<T>(decorator: MethodDecoratorOf<T>): DecoratedMethod<T>[] {
    const found: DecoratedMethod<T>[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.isDependencyTreeStatic()) continue;
      const instance: unknown = wrapper.instance;
      if (instance === null || typeof instance !== 'object') continue;
      const methods = instance as Record<string, unknown>;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object | null)) {
        const fn = methods[method];
        if (typeof fn !== 'function') continue;
        const meta = this.reflector.get(decorator, fn);
        if (meta === undefined || meta === null) continue;
        found.push({
          meta,
          source: `${instance.constructor.name}.${method}`,
          call: (...args) => (fn as (...a: unknown[]) => unknown).apply(instance, args),
          metaOf: (other) => this.reflector.get(other, fn) ?? undefined,
        });
      }
    }
    return found;
  }
}
