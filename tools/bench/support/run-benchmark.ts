/** Runs a benchmark's main and exits with the status it resolves to; a throw prints its stack and exits 1. */
export function runBenchmark(main: () => Promise<number>): void {
  main().then(
    (status) => process.exit(status),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
