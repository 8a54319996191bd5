export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}


/** Reads one environment; collects every problem so an operator fixes them in one go. */
export class EnvReader {
  readonly problems: string[] = [];

  /** `defaults`: values for unset (or blank) variables, written as the environment would write them. */
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly defaults: Readonly<Record<string, string | undefined>> = {},
  ) {}

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  optional(name: string): string | null {
    const value = this.env[name]?.trim() || this.defaults[name]?.trim();
    return value ? value : null;
  }

  list(name: string): string[] {
    return (this.env[name] ?? this.defaults[name] ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (!raw) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  /** A finite number within [min, max]; fractions allowed, unlike `int`. */
  number(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      this.problems.push(`${name} must be a number in ${min}..${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  /** A finite number above zero; fractions allowed, unlike `int`. */
  positiveNumber(name: string, fallback: number): number {
    const raw = this.optional(name);
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
      this.problems.push(`${name} must be a number above 0 (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  bigint(name: string, fallback: bigint): bigint {
    const raw = this.optional(name);
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw)) {
      this.problems.push(`${name} must be a non-negative integer (got "${raw}")`);
      return fallback;
    }
    return BigInt(raw);
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (!raw) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be on/off or true/false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (!raw) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }
}
