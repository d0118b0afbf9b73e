import { DcbError } from '@dcbkit/core';

/**
 * The second argument Next.js gives a route handler: the dynamic segments of its folder
 * (`app/subscriptions/[subscriptionUid]/cancel/route.ts`), a Promise since Next.js 15, a plain
 * object before.
 */
export interface NextRouteContext {
  params:
    | Promise<Readonly<Record<string, string | string[] | undefined>>>
    | Readonly<Record<string, string | string[] | undefined>>;
}

/** An App Router route handler: export it as the method it answers (`export const POST = …`). */
export type NextRouteHandler = (request: Request, context?: NextRouteContext) => Promise<Response>;

/**
 * The route's params as the partner routes take them: each single dynamic segment by name. A
 * catch-all segment (`[...slug]`, an array) names no partner-route field, and is left out.
 */
export async function paramsOf(context: NextRouteContext | undefined): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((await context?.params) ?? {})) {
    if (typeof value === 'string') params[name] = value;
  }
  return params;
}

/** Refuses an option that is not a function, naming it and what it should be. */
export function assertMaker(option: string, value: unknown, expected: string): void {
  if (typeof value !== 'function') {
    throw new DcbError('invalid_option', `${option} must be ${expected}.`, { details: { option } });
  }
}
