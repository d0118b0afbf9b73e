// What the apps on fetch's Request (bare fetch, Next.js) need of a router, and nothing more.

/** `:name` segments (a tiny router's) or `[name]` folders (the App Router's). */
const PARAM = { colon: /:(\w+)/g, bracket: /\[(\w+)\]/g } as const;

/**
 * Matches a pattern (`/subscriptions/:subscriptionUid/cancel`, or with `bracket`
 * `/subscriptions/[subscriptionUid]/cancel`) against a path: the params, or undefined.
 */
export function matchPath(
  pattern: string,
  path: string,
  syntax: keyof typeof PARAM = 'colon',
): Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern.replace(PARAM[syntax], (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${source}$`).exec(path);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}

/** True when the request's body is of this media type. */
export const isType = (request: Request, type: string): boolean =>
  (request.headers.get('content-type') ?? '').toLowerCase().startsWith(type);
