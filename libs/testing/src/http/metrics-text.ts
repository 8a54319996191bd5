/** The value of one sample of a Prometheus text exposition, or undefined when the series is absent. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) found[pair[1]] = pair[2];
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** GET `${url}/metrics`: the text, after checking it is Prometheus text. */
export async function scrapeMetrics(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith('text/plain')) {
    throw new MetricsScrapeError(`${url}/metrics answered ${response.status} ${response.headers.get('content-type') ?? ''}`);
  }
  return response.text();
}

export class MetricsScrapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetricsScrapeError';
  }
}
