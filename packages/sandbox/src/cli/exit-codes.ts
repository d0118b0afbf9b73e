/**
 * The CLI's exit codes, documented in docs/sandbox.md, so that scripts can tell a mistake in the
 * command line from a port already taken or a broken config file.
 */
export const EXIT_CODES = {
  /** Stopped by SIGINT or SIGTERM after a clean shutdown, or --help / --version. */
  OK: 0,
  /** Anything unexpected: the message says what. */
  FAILURE: 1,
  /** The command line or PORT is wrong: unknown flag, bad port, bad URL. */
  USAGE: 2,
  /** Another process listens on the port asked for. */
  PORT_IN_USE: 3,
  /** The config file (or state file) cannot be read, is not JSON, or does not match the format. */
  CONFIG: 4,
} as const;
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
