/**
 * Resolves on the first Ctrl+C (SIGINT) or SIGTERM. main.ts asks before it starts anything: a
 * signal with no listener kills Node outright, and pnpm reports a start killed that way as failed
 * ("Exit status 129"), which is what happened to a Ctrl+C that came during the start or in the
 * instant between the address being printed and the listener being added. A second signal, while
 * the shop closes, ends the process at once.
 */
export function whenStopAsked(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const first = (signal: NodeJS.Signals) => {
      process.off('SIGINT', first);
      process.off('SIGTERM', first);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', first);
    process.on('SIGTERM', first);
  });
}
