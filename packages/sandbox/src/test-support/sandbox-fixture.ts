import { createClock } from '../clock/clock.js';
import type { ApplicationCapability, SandboxConfig } from '../config/config-schema.js';
import { defaultSandboxConfig } from '../config/load-config.js';
import { type Sandbox, type StartSandboxOptions, startSandbox } from '../start/start-sandbox.js';

/** Where test clocks start. */
export const TEST_START = '2030-01-01T00:00:00.000Z';

export interface TestSandboxOptions extends Omit<StartSandboxOptions, 'config' | 'clock' | 'port' | 'host'> {
  /** Edits the default config before the sandbox starts. */
  configure?: (config: SandboxConfig) => void;
  /** Where the frozen clock starts. Default TEST_START. */
  start?: string;
}

/** A sandbox on 127.0.0.1, an ephemeral port and a frozen clock at TEST_START. */
export function startTestSandbox(options: TestSandboxOptions = {}): Promise<Sandbox> {
  const { configure, start = TEST_START, ...rest } = options;
  const config = defaultSandboxConfig();
  configure?.(config);
  return startSandbox({
    port: 0,
    host: '127.0.0.1',
    config,
    clock: createClock({
      start,
      frozen: true,
      onTaskError: (error) => {
        throw error;
      },
    }),
    ...rest,
  });
}

/** Adds an application to a config, allowed on every offer. */
export function addApplication(
  config: SandboxConfig,
  clientId: string,
  capabilities: ApplicationCapability[],
  rateLimit = { requests: 600, windowSeconds: 60 },
): { clientId: string; clientSecret: string } {
  const clientSecret = `${clientId}-secret-0123456789`;
  config.applications.push({
    clientId,
    clientSecret,
    name: clientId,
    capabilities,
    webhook: { url: null, secret: `${clientId}-webhook-secret` },
    rateLimit,
  });
  for (const offer of config.offers) offer.applications.push(clientId);
  return { clientId, clientSecret };
}
