/**
 * Id sets kept as sorted arrays: JSON-friendly, and the same set has the same array whatever the
 * order its ids arrived in, which is what makes out-of-order delivery end in the in-order state.
 */
export function withId(ids: readonly string[], id: string | undefined): readonly string[] {
  if (id === undefined) return ids;
  const at = insertionPoint(ids, id);
  if (ids[at] === id) return ids;
  const next = ids.slice(0, at);
  next.push(id);
  for (let i = at; i < ids.length; i++) next.push(ids[i] as string);
  return next;
}

export function hasId(ids: readonly string[], id: string): boolean {
  return ids[insertionPoint(ids, id)] === id;
}

function insertionPoint(ids: readonly string[], id: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] as string) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}
