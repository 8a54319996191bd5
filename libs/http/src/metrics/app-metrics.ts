import { collectDefaultMetrics, Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Registry } from 'prom-client';

/** Seconds buckets of the HTTP request histogram: from a cached GET to a slow replay upload. */
const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Label of a request no route matched (404s), so a scan of random URLs adds no series. */
export const UNMATCHED_ROUTE = '(unmatched)';

type Child = { observe(value: number): void };

/**
 * One app's Prometheus registry (DECISIONS §14): process metrics, the HTTP request histogram and
 * whatever domain metrics the app's modules register. One per app, not the global registry, so
 * several apps in one test process do not collide.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status_code'>;
  // method → route template → status → histogram child: after warm-up a request costs lookups and one observe.
  private readonly children = new Map<string, Map<string, Map<number, Child>>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.http = this.histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route template and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
    });
  }

  /** Records one answered request; `route` is the route template (never the raw URL). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const template = route ?? UNMATCHED_ROUTE;
    let byRoute = this.children.get(method);
    if (!byRoute) this.children.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(template);
    if (!byStatus) byRoute.set(template, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = this.http.labels(method, template, String(status))));
    child.observe(seconds);
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return new Counter({ ...config, registers: [this.registry] });
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return new Histogram({ ...config, registers: [this.registry] });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
