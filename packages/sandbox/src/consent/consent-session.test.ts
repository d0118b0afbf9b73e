import { describe, expect, it } from 'vitest';
import { consentPolicySchema, type OperatorConfig } from '../config/config-schema.js';
import type { AcceptedLine } from '../operator/number-lookup.js';
import {
  type ConsentContext,
  type ConsentOutcome,
  type ConsentSession,
  changeNumber,
  confirmHeaderEnrichment,
  resendPin,
  sendKeyword,
  submitNumber,
  submitPin,
  switchMethod,
} from './consent-session.js';

const START = new Date('2030-01-01T00:00:00Z');
const policy = consentPolicySchema.parse({}); // HE, PIN, MO_SMS; 4 digits, 300 s, 3 attempts

function contextAt(seconds = 0, pins = ['1234', '5678', '9012']): ConsentContext {
  const next = [...pins];
  return {
    now: new Date(START.getTime() + seconds * 1000),
    policy,
    dice: { pinCode: () => next.shift() ?? '0000', keyword: () => 'PAY 4242' },
  };
}

const operator: OperatorConfig = {
  code: 'tt',
  name: 'Tunisie Telecom',
  countryCode: 'TN',
  numbering: { prefixes: ['+2169'], digits: 11 },
  modes: ['HOSTED'],
  consentMethods: ['PIN', 'HEADER_ENRICHMENT', 'MO_SMS'],
  operatorConsentPage: true,
  instruments: ['mobile-balance'],
};
const line: AcceptedLine = { ok: true, msisdn: '+21690000000', operator, behaviour: 'SUCCESS' };
const dayPass = { type: 'CONSUMABLE' as const, consentMethods: undefined };

function waitingSession(outcome: ConsentOutcome | ReturnType<typeof submitNumber>): ConsentSession {
  if (outcome.kind !== 'waiting' && outcome.kind !== 'refused') {
    throw new Error(`expected the consent step, got ${outcome.kind}`);
  }
  return outcome.session;
}

/** A session on the PIN method, its first PIN (1234) texted at START. */
function onPin(): ConsentSession {
  return waitingSession(submitNumber(line, 'WIFI', dayPass, contextAt()));
}

describe('the number step', () => {
  it('hands back the service’s refusal of the number, and stays on the number step', () => {
    expect(submitNumber({ ok: false, code: 'SBR-102' }, 'WIFI', dayPass, contextAt())).toEqual({
      kind: 'number-refused',
      code: 'SBR-102',
    });
  });

  it('opens network recognition first on mobile data, with every method open', () => {
    const outcome = submitNumber(line, 'MOBILE_DATA', dayPass, contextAt());
    expect(outcome).toMatchObject({
      kind: 'waiting',
      session: { method: 'HEADER_ENRICHMENT', methods: ['HEADER_ENRICHMENT', 'PIN', 'MO_SMS'] },
    });
    expect(outcome).not.toHaveProperty('sms');
  });

  it('opens the PIN on Wi-Fi and texts it at once', () => {
    const outcome = submitNumber(line, 'WIFI', dayPass, contextAt());
    expect(outcome).toMatchObject({
      kind: 'waiting',
      session: {
        method: 'PIN',
        methods: ['PIN', 'MO_SMS'],
        pin: { code: '1234', attemptsLeft: 3, expiresAt: new Date(START.getTime() + 300_000) },
      },
      sms: { direction: 'MT', pin: '1234' },
    });
  });

  it('finds no method on Wi-Fi when network recognition is all the operator has', () => {
    const networkOnly = {
      ...line,
      operator: { ...operator, consentMethods: ['HEADER_ENRICHMENT' as const] },
    };
    expect(submitNumber(networkOnly, 'WIFI', dayPass, contextAt())).toEqual({ kind: 'no-method' });
  });
});

describe('the PIN', () => {
  it('gives consent for the right code, spaces around it ignored', () => {
    expect(submitPin(onPin(), ' 1234 ', contextAt(10))).toEqual({ kind: 'consented', line });
  });

  it('costs an attempt per wrong code, and fails the payment at the last one', () => {
    const first = submitPin(onPin(), '0000', contextAt(10));
    expect(first).toMatchObject({ kind: 'refused', refusal: { reason: 'pin-wrong', attemptsLeft: 2 } });
    const second = submitPin(waitingSession(first), '0000', contextAt(20));
    expect(second).toMatchObject({ kind: 'refused', refusal: { reason: 'pin-wrong', attemptsLeft: 1 } });
    expect(submitPin(waitingSession(second), '0000', contextAt(30))).toEqual({ kind: 'failed' });
  });

  it('refuses even the right code once it expired, and a resend brings a new code, time and attempts', () => {
    const session = waitingSession(submitPin(onPin(), '0000', contextAt(10)));
    expect(submitPin(session, '1234', contextAt(301))).toMatchObject({
      kind: 'refused',
      refusal: { reason: 'pin-expired' },
    });
    const resent = resendPin(session, contextAt(301, ['5678']));
    expect(resent).toMatchObject({
      kind: 'waiting',
      session: { pin: { code: '5678', attemptsLeft: 3, expiresAt: new Date(START.getTime() + 601_000) } },
      sms: { direction: 'MT', pin: '5678' },
    });
    expect(submitPin(waitingSession(resent), '1234', contextAt(302))).toMatchObject({ kind: 'refused' });
    expect(submitPin(waitingSession(resent), '5678', contextAt(302))).toEqual({ kind: 'consented', line });
  });

  it('changes nothing when the PIN is not the method shown', () => {
    const onHe = waitingSession(submitNumber(line, 'MOBILE_DATA', dayPass, contextAt()));
    expect(submitPin(onHe, '1234', contextAt())).toEqual({ kind: 'waiting', session: onHe });
    expect(resendPin(onHe, contextAt())).toEqual({ kind: 'waiting', session: onHe });
  });
});

describe('network recognition and the keyword SMS', () => {
  it('recognises the line on mobile data only', () => {
    const onHe = waitingSession(submitNumber(line, 'MOBILE_DATA', dayPass, contextAt()));
    expect(confirmHeaderEnrichment(onHe)).toEqual({ kind: 'consented', line });
    const wifiHe: ConsentSession = { ...onPin(), method: 'HEADER_ENRICHMENT' };
    expect(confirmHeaderEnrichment(wifiHe)).toEqual({ kind: 'waiting', session: wifiHe });
  });

  it('carries every keyword SMS, and consents when it matches whatever its case', () => {
    const onMo = waitingSession(switchMethod(onPin(), 'MO_SMS', contextAt()));
    expect(onMo).toMatchObject({ method: 'MO_SMS', keyword: 'PAY 4242' });
    expect(sendKeyword(onMo, 'HELLO')).toEqual({
      kind: 'refused',
      session: onMo,
      refusal: { reason: 'keyword-wrong' },
      sms: { direction: 'MO', text: 'HELLO' },
    });
    expect(sendKeyword(onMo, ' pay 4242 ')).toEqual({
      kind: 'consented',
      line,
      sms: { direction: 'MO', text: 'pay 4242' },
    });
  });

  it('carries no SMS when the keyword method is not the one shown', () => {
    expect(sendKeyword(onPin(), 'PAY 4242')).toEqual({ kind: 'waiting', session: onPin() });
  });
});

describe('moving between methods and steps', () => {
  it('switches only to an open method, and keeps a PIN already texted', () => {
    const session = onPin();
    const toMo = switchMethod(session, 'MO_SMS', contextAt());
    const back = switchMethod(waitingSession(toMo), 'PIN', contextAt(5, ['9999']));
    expect(back).toEqual({ kind: 'waiting', session: { ...waitingSession(toMo), method: 'PIN' } });
    expect(waitingSession(back).pin?.code).toBe('1234');
    // Network recognition is not open on Wi-Fi, and nothing was asked for.
    expect(switchMethod(session, 'HEADER_ENRICHMENT', contextAt())).toEqual({ kind: 'waiting', session });
    expect(switchMethod(session, undefined, contextAt())).toEqual({ kind: 'waiting', session });
  });

  it('texts a first PIN when switching to it from network recognition', () => {
    const onHe = waitingSession(submitNumber(line, 'MOBILE_DATA', dayPass, contextAt()));
    expect(switchMethod(onHe, 'PIN', contextAt())).toMatchObject({
      session: { method: 'PIN', pin: { code: '1234' } },
      sms: { direction: 'MT', pin: '1234' },
    });
  });

  it('goes back to the number step unless the partner locked the number', () => {
    const session = onPin();
    expect(changeNumber(session, false)).toEqual({ kind: 'number' });
    expect(changeNumber(session, true)).toEqual({ kind: 'waiting', session });
  });
});
