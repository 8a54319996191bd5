import type { ValueTransformer } from 'typeorm';

/** pg returns BIGINT as a string; these values stay far below 2^53, so a number is exact. */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
