/**
 * @dcbkit/sandbox/testing: drives the sandbox's checkout pages from a partner's own integration
 * tests, over HTTP, against an in-process sandbox or one started with the CLI.
 */

// Partners' tests start the emulator from the same import.
export { createClock, type SandboxClock } from '../clock/clock.js';
export {
  type EnvironmentCredentials,
  type Sandbox,
  type SandboxEnvironment,
  type StartSandboxOptions,
  startSandbox,
} from '../start-sandbox.js';
export { type BrowserPage, CheckoutBrowser, type PageForm, parseForms } from './checkout-browser.js';
export {
  type CheckoutDriver,
  type CheckoutDriverOptions,
  type CheckoutLocale,
  type CheckoutOutcome,
  createCheckoutDriver,
  type FailOptions,
  type FailureCause,
  type PayOptions,
  type SandboxTarget,
} from './checkout-driver.js';
export { SandboxCheckoutError } from './checkout-error.js';
