import { hkdfSync } from 'node:crypto';

/**
 * Keys for form tokens that every instance of the app computes alike without one more secret to
 * configure: HKDF of each webhook secret, under its own label, so neither key reveals the other.
 * Any verifies; the LAST makes new tokens: during a rotation (`new,old`) that is the old secret,
 * which the instances not yet redeployed hold too, so old and new instances accept each other's
 * forms. Forms rendered before the deploy that drops the old secret must be reloaded once;
 * `DCB_FORM_SECRET` avoids even that.
 */
export function deriveFormSecrets(webhookSecrets: string | readonly string[]): string[] {
  const secrets = [webhookSecrets].flat();
  return [...secrets]
    .reverse()
    .map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'dcbkit', 'dcbkit form tokens', 32)).toString('base64url'),
    );
}
