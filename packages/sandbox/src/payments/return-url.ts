import { webOriginOf } from '@dcbkit/core/schemas';

/**
 * What the checkout's CSP `form-action` must allow for its last redirect to the return URL: its
 * origin, or for a deep link its scheme (a CSP scheme-source, `myapp:`).
 */
export function formTargetOf(returnUrl: string): string {
  return webOriginOf(returnUrl) ?? new URL(returnUrl).protocol;
}
