export {
  type AnsweredErrorCode,
  type AuthenticationFailureCode,
  type CodesOf,
  codesOf,
  errorGroupOf,
  type HttpStatusOf,
  httpStatusOf,
  isAuthenticationFailureCode,
  isCodeOf,
} from './code-groups.js';
export { DcbError, type DcbErrorOptions, isDcbError } from './dcb-error.js';
export {
  type ApiErrorCode,
  DCB_ERROR_CODES,
  type DcbErrorCode,
  type ErrorCodeGroup,
  type ErrorCodeRow,
  isKitErrorCode,
  type KitErrorCode,
  specSaysRetryable,
} from './error-codes.js';
export { optionError } from './option-error.js';
