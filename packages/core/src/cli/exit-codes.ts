/**
 * The exit codes of `dcbkit`, documented in docs/doctor.md, so that a deploy script can tell a
 * receiver to fix from a command line to fix.
 */
export const EXIT_CODES = {
  /** The receiver answered every probe as the spec expects, or --help. */
  OK: 0,
  /** The doctor found something to fix (or could not run: the message says why). */
  FINDINGS: 1,
  /** The command line is wrong: an unknown command or flag, a bad URL, no secret. */
  USAGE: 2,
} as const;
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
