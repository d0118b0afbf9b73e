export { DcbError, type DcbErrorOptions, isDcbError } from './dcb-error.js';
export {
  type ApiErrorCode,
  DCB_ERROR_CODES,
  type DcbErrorCode,
  isKitErrorCode,
  type KitErrorCode,
  specSaysRetryable,
} from './error-codes.js';
export { optionError } from './option-error.js';
