import { capabilitiesSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../start/start-sandbox.js';
import { apiGet, dataOf, errorOf, getToken } from '../test-support/api-client.js';
import { startTestSandbox } from '../test-support/sandbox-fixture.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

describe('GET /v1/capabilities', () => {
  it('answers for the whole country, or narrowed to one operator', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const country = dataOf(
      await apiGet(sandbox, '/v1/capabilities?countryCode=TN', token),
      capabilitiesSchema,
    );
    expect(country).toEqual({
      countryCode: 'TN',
      operator: '*',
      modes: ['HOSTED'],
      consentMethods: ['PIN', 'HEADER_ENRICHMENT', 'MO_SMS'],
      operatorConsentPage: true,
      instruments: ['PREPAID_BALANCE', 'POSTPAID_BILL'],
    });
    const sahel = dataOf(
      await apiGet(sandbox, '/v1/capabilities?countryCode=TN&operator=SAHEL_MOBILE', token),
      capabilitiesSchema,
    );
    expect(sahel).toEqual({
      countryCode: 'TN',
      operator: 'SAHEL_MOBILE',
      modes: ['HOSTED'],
      consentMethods: ['PIN'],
      operatorConsentPage: false,
      instruments: ['PREPAID_BALANCE', 'POSTPAID_BILL'],
    });
    const carthage = dataOf(
      await apiGet(sandbox, '/v1/capabilities?countryCode=TN&operator=CARTHAGE_TELECOM', token),
      capabilitiesSchema,
    );
    expect(carthage.consentMethods).toEqual(['HEADER_ENRICHMENT', 'PIN', 'MO_SMS']);
  });

  it('answers an empty list for a country with no operator', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const france = dataOf(
      await apiGet(sandbox, '/v1/capabilities?countryCode=FR', token),
      capabilitiesSchema,
    );
    expect(france).toMatchObject({ countryCode: 'FR', modes: [], consentMethods: [], instruments: [] });
  });

  it('refuses a missing or malformed country (VAL-001, VAL-002) and an unknown operator (SBR-104)', async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox);
    const missing = await apiGet(sandbox, '/v1/capabilities', token);
    expect([missing.status, errorOf(missing).code]).toEqual([400, 'VAL-001']);
    const malformed = await apiGet(sandbox, '/v1/capabilities?countryCode=tunisia', token);
    expect([malformed.status, errorOf(malformed).code]).toEqual([400, 'VAL-002']);
    const repeated = await apiGet(sandbox, '/v1/capabilities?countryCode=TN&countryCode=FR', token);
    expect([repeated.status, errorOf(repeated).code]).toEqual([400, 'VAL-002']);
    const unknown = await apiGet(sandbox, '/v1/capabilities?countryCode=TN&operator=NOPE', token);
    expect([unknown.status, errorOf(unknown).code]).toEqual([422, 'SBR-104']);
    const elsewhere = await apiGet(sandbox, '/v1/capabilities?countryCode=FR&operator=SAHEL_MOBILE', token);
    expect(errorOf(elsewhere).code).toBe('SBR-104');
  });
});
