/** A fresh object of `source`'s `keys`, in that order (the order it serialises in), and nothing else. */
export function pick<T, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, source[key]])) as Pick<T, K>;
}
