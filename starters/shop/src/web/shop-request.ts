import type { SessionHandle } from '../session.js';

/**
 * What a page of the shop reads from a request, said without a web framework: the framework's
 * part of the app (src/framework/) makes one from its own request object.
 */
export interface ShopRequest {
  method: string;
  /** The path and query as the browser sent them (`/account?x=1`). */
  url: string;
  /** The query string's fields. */
  query: Readonly<Record<string, unknown>>;
  /** The path's named parts (`:subscriptionUid`). */
  params: Readonly<Record<string, string | undefined>>;
  /** A posted form's fields; empty for anything else. */
  form: Readonly<Record<string, unknown>>;
  /** A header's value, or undefined when the browser did not send it. */
  header(name: string): string | undefined;
  session: SessionHandle;
}
