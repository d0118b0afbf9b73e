import { type CodesOf, isCodeOf } from '../errors/code-groups.js';
import { DcbError } from '../errors/dcb-error.js';

// Raised by every body reader (node/read-raw-body.ts on an IncomingMessage, web/read-request-body.ts
// on a fetch Request), so that the webhook and the routes answer a body problem alike on both.

/**
 * Why the raw body could not be had: the `body` group of DCB_ERROR_CODES, whose rows give the
 * status to answer.
 * - `body_too_large`: above the size limit (answer 413).
 * - `body_consumed`: a body parser read the stream and did not keep the bytes (answer 500 and fix the mounting).
 * - `body_incomplete`: the client went away or the stream failed mid-body (answer 400).
 * - `body_timeout`: the body did not arrive in time (answer 408).
 */
export type RawBodyErrorCode = CodesOf<'body'>;

export function rawBodyError(
  code: RawBodyErrorCode,
  message: string,
  cause?: unknown,
): DcbError<RawBodyErrorCode> {
  return new DcbError(code, message, { cause });
}

/** True for a DcbError of the `body` group, whichever reader raised it. */
export function isRawBodyError(error: unknown): error is DcbError<RawBodyErrorCode> {
  return error instanceof DcbError && isCodeOf('body', error.code);
}
