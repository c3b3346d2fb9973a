// Child processes the benchmark started, stopped at the end whatever happens: after the last
// row, after an error, or on Ctrl-C / SIGTERM (then the process exits 130 once they are gone).

export interface Cleanup {
  /** Registers a stop; stops run in reverse order of registration. */
  add(stop: () => Promise<void>): void;
  /** Runs every stop once; later calls wait for the same run. */
  run(): Promise<void>;
}

export function cleanupOnExit(report: (line: string) => void): Cleanup {
  const stops: (() => Promise<void>)[] = [];
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= (async () => {
      for (const stop of stops.splice(0).reverse()) {
        await stop().catch((error: unknown) => report(`could not stop a benchmark process: ${error instanceof Error ? error.message : String(error)}`));
      }
    })();
    return running;
  };
  const onSignal = () => void run().then(() => process.exit(130));
  // `on`, not `once`: a Ctrl-C reaches this process twice (from the terminal and relayed by tsx),
  // and a second signal without a handler would end it before the stops have run.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    add: (stop) => stops.push(stop),
    run: async () => {
      await run();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
