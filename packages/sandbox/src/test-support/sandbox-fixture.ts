import { createClock } from '../clock/clock.js';
import type { ApplicationCapability, SandboxConfig } from '../config/config-schema.js';
import { defaultSandboxConfig } from '../config/load-config.js';
import { type Sandbox, type StartSandboxOptions, startSandbox } from '../start/start-sandbox.js';
import { openApiContract } from './openapi-contract.js';

/** Where test clocks start. */
export const TEST_START = '2030-01-01T00:00:00.000Z';

export interface TestSandboxOptions extends Omit<StartSandboxOptions, 'config' | 'clock' | 'port' | 'host'> {
  /** Edits the default config before the sandbox starts. */
  configure?: (config: SandboxConfig) => void;
  /** Where the frozen clock starts. Default TEST_START. */
  start?: string;
}

/** One contract for every test sandbox: its validators are compiled once per test file. */
let contract: ReturnType<typeof openApiContract> | undefined;

/**
 * A sandbox on 127.0.0.1, an ephemeral port and a frozen clock at TEST_START, held to its OpenAPI
 * document: an API answer that does not keep to it is printed and answered SBX-500 instead, and an
 * event that does not is printed and never posted, so the test that met it fails.
 */
export function startTestSandbox(options: TestSandboxOptions = {}): Promise<Sandbox> {
  const { configure, start = TEST_START, ...rest } = options;
  const config = defaultSandboxConfig();
  configure?.(config);
  contract ??= openApiContract();
  const { checkAnswer, checkEvent } = contract;
  const post = rest.fetch ?? globalThis.fetch;
  return startSandbox({
    ...rest,
    onApiAnswer: (answer) => {
      loudly(() => checkAnswer(answer));
      rest.onApiAnswer?.(answer);
    },
    fetch: (url, init) => {
      loudly(() => checkEvent(String(init?.body), new Headers(init?.headers).get('service-signature')));
      return post(url, init);
    },
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
  });
}

function loudly(check: () => void): void {
  try {
    check();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    throw error;
  }
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
