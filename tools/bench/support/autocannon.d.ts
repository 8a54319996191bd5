/** The part of autocannon's API that `bench http` uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface RequestStep {
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | null;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      timeout?: number;
      requests?: RequestStep[];
    }
    interface Result {
      '2xx': number;
      non2xx: number;
      errors: number;
      timeouts: number;
      duration: number;
      latency: { p50: number; p99: number; average: number };
      requests: { average: number; total: number };
      statusCodeStats?: Record<string, { count: number }>;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
