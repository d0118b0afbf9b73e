import { DcbError } from '@dcbkit/core';

/**
 * Every code a SandboxError carries, with what it means: the one table the code union comes from.
 * Branch on `error.code`, never on the message. docs/sandbox.md lists them for readers.
 */
export const SANDBOX_ERROR_CODES = {
  // Starting: the config and state files (SandboxConfigError; the CLI exits 4).
  config_unreadable: 'the config file cannot be read',
  config_not_json: 'the config file is not JSON; `position` says where',
  config_invalid: 'the config does not match the format; `issues` say where',
  state_unreadable: 'the state file cannot be read',
  state_not_json: 'the state file is not JSON; `position` says where',
  state_invalid: 'the state file is not one of this sandbox version, or contradicts itself',
  control_token_required: 'listening beyond loopback without a control token',
  invalid_webhook_url: 'a webhook URL that is not an http(s) URL',
  // Starting: the listener (SandboxPortInUseError; the CLI exits 3). Node's own code for it, so code
  // written for node:http's listen errors recognises it.
  EADDRINUSE: 'another process already listens on the port',
  // The command line (the CLI exits 2).
  invalid_command_line: 'an unknown flag, or a bad port, URL or token in the arguments or PORT',
  // A running sandbox, its clock and its environments.
  invalid_chaos_settings: 'delivery chaos settings that do not match their schema',
  invalid_clock_start: 'a clock start that is not a date',
  invalid_clock_advance: 'a clock advance by a negative or non-finite number of seconds',
  unknown_application: 'a client ID the environment does not know',
  already_approved: 'approving a production application that is already live: its secret was shown once',
  unknown_subscription: 'a subscription UID neither environment knows',
  unknown_webhook_event:
    'replaying an event id the environment does not hold (never sent, or freed after its retention)',
  no_webhook_url: 'replaying an event of an application that has no webhook URL to post it to',
  // @dcbkit/sandbox/testing (SandboxCheckoutError), when the sandbox gave no spec code of its own.
  checkout_failed: 'the checkout driver could not do what it was asked',
  // @dcbkit/sandbox/testing (PartnerCheckError).
  invalid_partner_check_options: 'runPartnerCheck was given options it cannot run with',
  partner_check_failed:
    'the partner check found what the app must fix; `report` lists each check and its evidence',
} as const satisfies Record<string, string>;

/** A code of SANDBOX_ERROR_CODES. */
export type SandboxErrorCode = keyof typeof SANDBOX_ERROR_CODES;

/**
 * The one error family of @dcbkit/sandbox: what its public functions and methods throw, each with a
 * stable `code` from SANDBOX_ERROR_CODES. One of dcbkit's errors, so `isDcbError(error)` holds too.
 *
 * @example
 * try {
 *   sandbox.setRenewalOutcome(uid, 'declined');
 * } catch (error) {
 *   if (error instanceof SandboxError && error.code === 'unknown_subscription') return;
 *   throw error;
 * }
 */
export class SandboxError<Code extends string = SandboxErrorCode> extends DcbError<Code> {
  static override readonly kind: string = 'SandboxError';
  override readonly name: string = 'SandboxError';
}
