import { SandboxError } from '../shared/sandbox-error.js';

/** Another process already listens on the port a sandbox environment was asked to use. */
export class SandboxPortInUseError extends SandboxError<'EADDRINUSE'> {
  static override readonly kind: string = 'SandboxPortInUseError';
  override readonly name: string = 'SandboxPortInUseError';

  constructor(
    readonly host: string,
    readonly port: number,
    options: { cause?: unknown } = {},
  ) {
    super(
      'EADDRINUSE',
      `Port ${port} on ${host} is already in use; choose another with --port or PORT (0 picks a free one).`,
      { cause: options.cause, details: { host, port } },
    );
  }
}
