/** Another process already listens on the port a sandbox environment was asked to use. */
export class SandboxPortInUseError extends Error {
  override readonly name = 'SandboxPortInUseError';
  readonly code = 'EADDRINUSE';

  constructor(
    readonly host: string,
    readonly port: number,
    options?: ErrorOptions,
  ) {
    super(
      `Port ${port} on ${host} is already in use; choose another with --port or PORT (0 picks a free one).`,
      options,
    );
  }
}
