/**
 * Why the raw body could not be had.
 * - `too_large`: above the size limit (answer 413).
 * - `consumed`: a body parser read the stream and did not keep the bytes (answer 500 and fix the mounting).
 * - `aborted`: the client went away or the stream failed mid-body.
 */
export type RawBodyErrorReason = 'too_large' | 'consumed' | 'aborted';

export class RawBodyError extends Error {
  override readonly name = 'RawBodyError';
  readonly reason: RawBodyErrorReason;

  constructor(reason: RawBodyErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
