import type { Server } from 'node:http';
import { SandboxPortInUseError } from './port-in-use-error.js';

/** Starts listening; a port already taken rejects with SandboxPortInUseError. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new SandboxPortInUseError(host, port, { cause: error }) : error);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}

/** The host part of a URL that reaches a listener on `host` from this machine. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
