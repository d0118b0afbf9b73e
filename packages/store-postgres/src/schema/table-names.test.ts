import { describe, expect, it } from 'vitest';
import { StorePostgresError } from '../errors/store-postgres-error.js';
import { tableNames } from './table-names.js';

describe('tableNames', () => {
  it('quotes and qualifies the default names', () => {
    const names = tableNames();
    expect(names.entitlements).toBe('"public"."dcbkit_entitlements"');
    expect(names.events).toBe('"public"."dcbkit_events"');
    expect(names.migrations).toBe('"public"."dcbkit_migrations"');
    expect(names.entitlementPayments).toBe('"public"."dcbkit_entitlement_payments"');
    expect(names.entitlementUnits).toBe('"public"."dcbkit_entitlement_units"');
    expect(names.index('events_completed_idx')).toBe('"dcbkit_events_completed_idx"');
  });

  it('takes a schema and a prefix, an empty prefix included', () => {
    expect(tableNames({ schema: 'billing', tablePrefix: 'app2_' }).entitlements).toBe(
      '"billing"."app2_entitlements"',
    );
    expect(tableNames({ schema: 'billing', tablePrefix: '' }).events).toBe('"billing"."events"');
  });

  it.each([
    ['schema', { schema: 'Billing' }],
    ['schema', { schema: 'bill"ing' }],
    ['schema', { schema: 'billing; DROP TABLE users' }],
    ['schema', { schema: '1billing' }],
    ['schema', { schema: '' }],
    ['schema', { schema: 'pg_temp' }],
    ['schema', { schema: 'x'.repeat(64) }],
    ['tablePrefix', { tablePrefix: 'my-app_' }],
    ['tablePrefix', { tablePrefix: 'x'.repeat(40) }],
    ['tablePrefix', { tablePrefix: 42 as unknown as string }],
  ])('refuses %s %j before any SQL is built', (option, options) => {
    let thrown: unknown;
    try {
      tableNames(options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorePostgresError);
    expect(thrown).toMatchObject({ code: 'invalid_option', details: { option } });
  });
});
