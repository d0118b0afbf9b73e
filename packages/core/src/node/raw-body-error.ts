import { DcbError } from '../errors/dcb-error.js';

/**
 * Why the raw body could not be had.
 * - `body_too_large`: above the size limit (answer 413).
 * - `body_consumed`: a body parser read the stream and did not keep the bytes (answer 500 and fix the mounting).
 * - `body_incomplete`: the client went away or the stream failed mid-body.
 * - `body_timeout`: the body did not arrive in time (answer 408).
 */
export type RawBodyErrorCode = 'body_too_large' | 'body_consumed' | 'body_incomplete' | 'body_timeout';

export function rawBodyError(
  code: RawBodyErrorCode,
  message: string,
  cause?: unknown,
): DcbError<RawBodyErrorCode> {
  return new DcbError(code, message, { cause });
}
