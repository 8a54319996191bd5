import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventBus } from './event-bus';
import { EventBusModule } from './event-bus.module';
import { onEventOf } from './on-event.decorator';

interface ShopEventMap {
  'order.placed': { orderId: string };
  'order.cancelled': { orderId: string };
}

@Injectable()
class ShopEvents extends EventBus<ShopEventMap> {}

const OnShopEvent = onEventOf<ShopEventMap>();

/** The app's events module: the bus, re-exported to the modules that emit. */
@Module({ imports: [EventBusModule.forRoot(ShopEvents)], exports: [EventBusModule] })
class ShopEventsModule {}

/** An emitter in its own domain module, as the apps' services are. */
@Injectable()
class Orders {
  constructor(private readonly events: ShopEvents) {}

  place(orderId: string): void {
    this.events.emit('order.placed', { orderId });
  }

  cancel(orderId: string): void {
    this.events.emit('order.cancelled', { orderId });
  }
}

@Module({ imports: [ShopEventsModule], providers: [Orders], exports: [Orders] })
class OrdersModule {}

/** Subscribers in a module that imports nothing of the bus: discovery finds them anyway. */
@Injectable()
class Mailer {
  readonly sent: string[] = [];

  @OnShopEvent('order.placed')
  confirm(event: { orderId: string }): void {
    this.sent.push(`confirm ${event.orderId}`);
  }

  @OnShopEvent('order.cancelled')
  apologise(event: { orderId: string }): void {
    this.sent.push(`sorry ${event.orderId}`);
  }
}

@Injectable()
class Counter {
  placed = 0;

  @OnShopEvent('order.placed')
  count(): void {
    this.placed += 1;
  }

  @OnShopEvent('order.cancelled')
  fail(): void {
    throw new RangeError('counter down');
  }
}

@Module({ providers: [Mailer, Counter] })
class ReactionsModule {}

@Module({ imports: [ShopEventsModule, OrdersModule, ReactionsModule] })
class AppModule {}

describe('EventBusModule', () => {
  it('subscribes every @OnEvent method of the app at boot, several per event, and keeps a throwing one from the emitter', async () => {
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const orders = app.get(Orders);
      orders.place('o-1');
      expect(() => orders.cancel('o-1')).not.toThrow();
      orders.place('o-2');

      expect(app.get(Mailer).sent).toEqual(['confirm o-1', 'sorry o-1', 'confirm o-2']);
      // Subscribed once, though two modules import the events module.
      expect(app.get(Counter).placed).toBe(2);
    } finally {
      await app.close();
    }
  });
});
