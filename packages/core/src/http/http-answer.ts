/**
 * A framework-neutral HTTP answer, for the webhook handler and the partner routes alike: adapters
 * write the status, the headers and the body as they are.
 */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body text (small JSON), or undefined for a bodyless redirect. */
  body: string | undefined;
}
