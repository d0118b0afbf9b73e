import { createDcbKit, type DcbKitConfig } from '../kit/create-dcb-kit.js';
import { offers, SECRET } from './fixtures.js';

/** A kit on the fixtures' offers and secret whose client points nowhere: for what sends no request to the service. */
export function offlineKit(config: Partial<DcbKitConfig> = {}) {
  return createDcbKit({
    client: {
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'svc_test_x',
      clientSecret: 's',
    },
    webhookSecrets: SECRET,
    offers,
    logger: {},
    ...config,
  });
}
