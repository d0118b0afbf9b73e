import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import { AppVisitor, describeAnswer } from './app-visitor.js';
import type { PartnerCheckHeaders } from './partner-check-options.js';

export interface FormSignInOptions {
  /** Your running app: 'http://127.0.0.1:3000'. */
  appUrl: string;
  /** Where the sign-in form posts: '/sign-in'. */
  path: string;
  /** The fields to post; `{accountKey}` in a value is the account: `{ accountId: '{accountKey}' }`. */
  fields: Readonly<Record<string, string>>;
  /**
   * A page showing the sign-in form, read first (as a browser would) for its hidden fields (a
   * form token) and the cookies it sets. Without it, only `fields` are posted.
   */
  page?: string;
  /** The longest wait for one answer of the app. Default 10 000 ms. */
  timeoutMs?: number;
}

/** Every option signInWithForm takes: the compiler holds this list to FormSignInOptions; another is refused (unknown_option). */
const FORM_SIGN_IN_OPTIONS: OptionNames<FormSignInOptions> = {
  appUrl: true,
  path: true,
  fields: true,
  page: true,
  timeoutMs: true,
};

/**
 * A `signIn` for `runPartnerCheck` (and `dcbkit-sandbox check --config`) that signs an account in
 * through the app's own sign-in form, as a browser does: reads the form on `page` when given,
 * posts it same-origin with `fields`, and returns the session cookie the app set. Throws, naming
 * the answer, when the app sets no cookie or answers an error.
 *
 * @example
 * await runPartnerCheck({ sandbox, appUrl, signIn: signInWithForm({ appUrl, path: '/sign-in', fields: { accountId: '{accountKey}' } }) });
 */
export function signInWithForm(
  options: FormSignInOptions,
): (accountKey: string) => Promise<PartnerCheckHeaders> {
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('signInWithForm', options, FORM_SIGN_IN_OPTIONS);
  const appUrl = new URL(options.appUrl);
  return async (accountKey) => {
    const visitor = new AppVisitor(appUrl, accountKey, {}, options.timeoutMs ?? 10_000);
    const fields = Object.fromEntries(
      Object.entries(options.fields).map(([name, value]) => [
        name,
        value.replaceAll('{accountKey}', accountKey),
      ]),
    );
    let hidden: Readonly<Record<string, string>> = {};
    if (options.page !== undefined) {
      const found = await visitor.formOn(options.page, options.path);
      if (found.fields === undefined) {
        throw new Error(
          `No form posting to ${options.path} on ${options.page}: ${describeAnswer(found.page)}`,
        );
      }
      hidden = found.fields;
    }
    const answer = await visitor.postForm(options.path, { ...hidden, ...fields });
    const cookie = visitor.cookieHeader();
    if (answer.status === null || answer.status >= 400 || cookie === '') {
      throw new Error(`Signing ${accountKey} in set no session cookie: ${describeAnswer(answer)}`);
    }
    return { cookie };
  };
}
