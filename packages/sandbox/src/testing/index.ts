/**
 * @dcbkit/sandbox/testing: drives the sandbox's checkout pages from a partner's own integration
 * tests, over HTTP, against an in-process sandbox or one started with the CLI; and the partner's
 * own check (runPartnerCheck), the test a partner adds to CI against its running app. Published:
 * the folder bears the subpath's name. The sandbox's own test helpers are in ../test-support/,
 * never published.
 */

// Partners' tests start the emulator from the same import.
export { createClock, type SandboxClock } from '../clock/clock.js';
// What the sandbox's own methods throw, for a test that checks a code.
export { SandboxError, type SandboxErrorCode } from '../shared/sandbox-error.js';
export type {
  EnvironmentCredentials,
  SandboxEnvironment,
  SandboxProductionEnvironment,
  SandboxTestEnvironment,
} from '../start/environment-view.js';
export { type Sandbox, type StartSandboxOptions, startSandbox } from '../start/start-sandbox.js';
export { type BrowserPage, CheckoutBrowser, type PageForm, parseForms } from './checkout-browser.js';
export {
  type CheckoutDriver,
  type CheckoutDriverOptions,
  type CheckoutLocale,
  createCheckoutDriver,
  type FailOptions,
  type FailureCause,
  type SandboxTarget,
} from './checkout-driver.js';
export { SandboxCheckoutError, type SandboxCheckoutErrorCode } from './checkout-error.js';
export type { CheckoutOutcome, PayOptions } from './checkout-walk.js';
export { type FormSignInOptions, signInWithForm } from './form-sign-in.js';
export { runPartnerCheck } from './partner-check.js';
export { PartnerCheckError, type PartnerCheckErrorCode } from './partner-check-error.js';
export type {
  PartnerCheckAccounts,
  PartnerCheckFormFields,
  PartnerCheckHeaders,
  PartnerCheckOptions,
  PartnerCheckPaths,
  PartnerCheckProduct,
} from './partner-check-options.js';
export type {
  DeliveryStats,
  GateObservation,
  PartnerCheckName,
  PartnerCheckOutcome,
  PartnerCheckPurchase,
  PartnerCheckReport,
  PartnerCheckResult,
} from './partner-check-report.js';
