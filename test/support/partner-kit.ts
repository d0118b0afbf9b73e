import {
  type CreateClientOptions,
  createDcbKit,
  type DcbKit,
  type DcbKitConfig,
  type DcbLogger,
  type LogFields,
} from '@dcbkit/core';
import { offerDefinitionsOf, type Sandbox } from '@dcbkit/sandbox';

/** What a partner app holds: one kit from createDcbKit, and every line it logged. */
export interface PartnerKit
  extends Pick<DcbKit, 'store' | 'offers' | 'routes' | 'client' | 'checkConnection' | 'explain'> {
  webhooks: DcbKit['webhook'];
  /** Every line the kit logged, message first. */
  logs: string[];
}

/** What a test changes from the sandbox's own setup: a wrong secret, another base URL, a logger. */
export type KitOverrides = Omit<Partial<DcbKitConfig>, 'client'> & { client?: Partial<CreateClientOptions> };

export function createPartnerKit(
  sandbox: Sandbox,
  returnUrl: string,
  overrides: KitOverrides = {},
): PartnerKit {
  const { client: clientOverrides, ...configOverrides } = overrides;
  const logs: string[] = [];
  const record = (fields: LogFields, message: string) => logs.push(`${message} ${JSON.stringify(fields)}`);
  const logger: DcbLogger = { warn: record, error: record };
  const kit = createDcbKit({
    client: {
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
      ...clientOverrides,
    },
    webhookSecrets: sandbox.credentials.webhookSecret,
    offers: offerDefinitionsOf(sandbox.config),
    returnUrl,
    maxBodyBytes: 64 * 1024,
    logger,
    now: () => sandbox.clock.now(),
    ...configOverrides,
  });
  return {
    store: kit.store,
    offers: kit.offers,
    client: kit.client,
    webhooks: kit.webhook,
    routes: kit.routes,
    checkConnection: kit.checkConnection,
    explain: kit.explain,
    logs,
  };
}
