/**
 * Hands out the items of a paged query one at a time to several workers: a page is fetched when
 * the previous one is used up (one fetch at a time, after the last item handed out), and the
 * source ends with the first short page.
 */
export function pagedSource<T>(
  fetchPage: (after: T | undefined) => Promise<T[]>,
  pageSize: number,
): () => Promise<T | undefined> {
  return cursorSource<T, T>(async (after) => {
    const entitlements = await fetchPage(after);
    return { entitlements, cursor: entitlements.length < pageSize ? undefined : entitlements.at(-1) };
  });
}

/**
 * The same, over pages that say where the next one starts: fetched one at a time when the
 * previous one is used up, until a page answers no cursor.
 */
export function cursorSource<T, Cursor = string>(
  fetchPage: (cursor: Cursor | undefined) => Promise<{ entitlements: T[]; cursor: Cursor | undefined }>,
): () => Promise<T | undefined> {
  const buffer: T[] = [];
  let cursor: Cursor | undefined;
  let done = false;
  let fetching: Promise<void> | undefined;
  return async () => {
    while (buffer.length === 0 && !done) {
      fetching ??= fetchPage(cursor)
        .then((page) => {
          buffer.push(...page.entitlements);
          cursor = page.cursor;
          if (cursor === undefined) done = true;
        })
        .finally(() => {
          fetching = undefined;
        });
      await fetching;
    }
    return buffer.shift();
  };
}

/** Runs `work` on the source's items, at most `concurrency` at once, until the source ends or `next` says stop. */
export async function runBounded<T>(
  next: () => Promise<T | undefined>,
  concurrency: number,
  mayStart: () => boolean,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const worker = async () => {
    for (;;) {
      const item = await next();
      if (item === undefined || !mayStart()) return;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
