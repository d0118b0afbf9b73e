import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paymentSchema, subscriptionSchema } from '@dcbkit/core/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxConfigError } from '../config/sandbox-config-error.js';
import type { Sandbox } from '../start/start-sandbox.js';
import { apiGet, apiPost, createPayment, dataOf, getToken, paymentBody } from '../test-support/api-client.js';
import { startTestSandbox, TEST_START } from '../test-support/sandbox-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { createCheckoutDriver } from '../testing/checkout-driver.js';

const DAY = 86_400;
let sandbox: Sandbox | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await sandbox?.close();
  await receiver?.close();
  sandbox = undefined;
  receiver = undefined;
});

function stateDir(): string {
  return mkdtempSync(join(tmpdir(), 'dcbkit-state-'));
}

describe('--state / statePath', () => {
  it('keeps payments, subscriptions, approvals, the clock and the outbox across a restart', async () => {
    const statePath = join(stateDir(), 'sandbox-state.json');
    receiver = await startWebhookReceiver();
    sandbox = await startTestSandbox({ statePath, webhookUrl: receiver.url });
    const first = sandbox;
    const liveCredentials = first.environments.production.approve();
    const token = await getToken(first);
    const trial = dataOf(
      await createPayment(first, token, paymentBody('offer_premium_monthly')),
      paymentSchema,
    );
    const open = dataOf(await createPayment(first, token, paymentBody('offer_day_pass')), paymentSchema);
    await createCheckoutDriver(first).pay(trial.checkoutUrl, { method: 'PIN' });
    await first.advanceClock(DAY);
    const subscriptionUid =
      dataOf(await apiGet(first, `/v1/payments/${trial.paymentUid}`, await getToken(first)), paymentSchema)
        .subscriptionUid ?? '';
    expect(subscriptionUid).toMatch(/^subs_/);
    const eventsBefore = first.webhooks().length;
    await first.close();
    sandbox = undefined;
    // The file was written atomically: no temporary file is left beside it.
    expect(readdirSync(join(statePath, '..'))).toEqual(['sandbox-state.json']);
    const saved = readFileSync(statePath, 'utf8');
    expect(JSON.parse(saved)).toMatchObject({ version: 2 });
    // The issued production secret is kept as a hash: the file cannot show it again either.
    expect(saved).not.toContain(liveCredentials.clientSecret);

    // A new process: a fresh clock at the same start, the same file.
    sandbox = await startTestSandbox({ statePath, webhookUrl: receiver.url });
    const second = sandbox;
    expect(second.clock.now().toISOString()).toBe(
      new Date(Date.parse(TEST_START) + DAY * 1000).toISOString(),
    );
    expect(second.environments.production.isLive()).toBe(true);
    const live = { apiBaseUrl: second.environments.production.apiBaseUrl, credentials: liveCredentials };
    expect(await getToken(live)).toMatch(/^live_at_/);
    expect(second.webhooks()).toHaveLength(eventsBefore);
    const token2 = await getToken(second);
    const paid = dataOf(await apiGet(second, `/v1/payments/${trial.paymentUid}`, token2), paymentSchema);
    expect(paid).toMatchObject({ status: 'SUCCEEDED', subscriptionUid });
    const subscription = dataOf(
      await apiGet(second, `/v1/subscriptions/${subscriptionUid}`, token2),
      subscriptionSchema,
    );
    expect(subscription.status).toBe('TRIALING');

    // The clock continues: the open payment still expires, the trial still converts, with events.
    await second.advanceClock(7 * DAY);
    const token3 = await getToken(second);
    expect(
      dataOf(await apiGet(second, `/v1/payments/${open.paymentUid}`, token3), paymentSchema).status,
    ).toBe('EXPIRED');
    const converted = dataOf(
      await apiGet(second, `/v1/subscriptions/${subscriptionUid}`, token3),
      subscriptionSchema,
    );
    expect(converted.status).toBe('ACTIVE');
    const later = second
      .webhooks()
      .slice(eventsBefore)
      .map((delivery) => delivery.event);
    expect(later).toEqual(expect.arrayContaining(['entitlement.granted']));
    await second.deliverDue();
    expect(receiver.verifiedEvents(second.credentials.webhookSecret).map((event) => event.event)).toContain(
      'entitlement.granted',
    );
  });

  it('a trial resumed before a restart is still TRIALING, and charged at its end', async () => {
    const statePath = join(stateDir(), 'sandbox-state.json');
    sandbox = await startTestSandbox({ statePath });
    const first = sandbox;
    const trial = dataOf(
      await createPayment(first, await getToken(first), paymentBody('offer_premium_monthly')),
      paymentSchema,
    );
    await createCheckoutDriver(first).pay(trial.checkoutUrl, { method: 'PIN' });
    const token = await getToken(first);
    const subscriptionUid =
      dataOf(await apiGet(first, `/v1/payments/${trial.paymentUid}`, token), paymentSchema).subscriptionUid ??
      '';
    const path = `/v1/subscriptions/${subscriptionUid}`;
    await apiPost(first, `${path}/cancel`, { token, body: { when: 'PERIOD_END' } });
    await apiPost(first, `${path}/resume`, { token });
    await first.close();
    sandbox = undefined;

    sandbox = await startTestSandbox({ statePath });
    const second = sandbox;
    const restored = dataOf(await apiGet(second, path, await getToken(second)), subscriptionSchema);
    expect(restored).toMatchObject({
      status: 'TRIALING',
      cancelAt: null,
      trialEndsAt: '2030-01-08T00:00:00.000Z',
    });
    await second.advanceClock(7 * DAY);
    const converted = dataOf(await apiGet(second, path, await getToken(second)), subscriptionSchema);
    expect(converted).toMatchObject({ status: 'ACTIVE', currentPeriodEnd: '2030-02-08T00:00:00.000Z' });
    expect(
      second
        .webhooks()
        .map((delivery) => delivery.event)
        .slice(-2),
    ).toEqual(['subscription.trial_will_end', 'entitlement.granted']);
  });

  it('starts afresh without a file, and refuses a broken one with its position', async () => {
    const dir = stateDir();
    sandbox = await startTestSandbox({ statePath: join(dir, 'new.json') });
    expect(sandbox.webhooks()).toEqual([]);
    await sandbox.close();
    sandbox = undefined;
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"version": 1,\n "savedAt": }');
    await expect(startTestSandbox({ statePath: broken })).rejects.toMatchObject({
      code: 'state_not_json',
      message: expect.stringContaining(`${broken}:2:13 is not valid JSON`),
    });
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, JSON.stringify({ version: 99 }));
    const error = await startTestSandbox({ statePath: foreign }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxConfigError);
    expect((error as SandboxConfigError).code).toBe('state_invalid');
    expect((error as SandboxConfigError).issues.map((issue) => issue.path)).toContain('version');
  });
});
