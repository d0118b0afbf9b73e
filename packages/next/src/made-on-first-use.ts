/**
 * `make`, called at the first call and never again once it succeeded: what a route handler needs
 * is made at its first request, not when Next.js imports the module. `next build` imports every
 * route module to collect its config, so a kit made at import would need the DCB_* variables (and
 * a reachable database) at build time. A failed attempt is not kept: the next call tries again.
 */
export function madeOnFirstUse<T>(make: () => T | Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= (async () => make())().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}
