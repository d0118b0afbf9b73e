import { consentMethodSchema, offerDefinitionSchema, offerTypeSchema } from '@dcbkit/core/schemas';
import { z } from 'zod';
import { chaosSettingsSchema, noChaos } from './chaos-settings.js';

/**
 * A number as the service takes it: "+", then 2 to 15 digits, the first not 0. The rule core applies
 * to `prefill.msisdn`; core no longer exports its schema, and test numbers and the checkout's number
 * step must accept exactly what the API does.
 */
export const e164Schema = z.string().regex(/^\+[1-9][0-9]{1,14}$/, 'an E.164 number such as "+21620000000"');

/** Route families an application may be allowed to call. */
export const APPLICATION_CAPABILITIES = ['payments', 'capabilities', 'subscriptions'] as const;
export const applicationCapabilitySchema = z.enum(APPLICATION_CAPABILITIES);
export type ApplicationCapability = z.infer<typeof applicationCapabilitySchema>;

const httpUrlSchema = z.url({ protocol: /^https?$/ });

const webhookConfigSchema = z.strictObject({
  /** Where events are posted. When null they are recorded (GET /sandbox/webhooks) but not posted. */
  url: httpUrlSchema.nullable().default(null),
  secret: z.string().min(16),
});

/**
 * The application's production environment: its own client ID, webhook URL and secret (the spec:
 * credentials never cross, each environment has its own webhook). Offers, capabilities and consent
 * policy are shared with the sandbox environment. Its client secret exists only once the go-live
 * review passed: the review issues it and shows it once (the spec's "issued only after approval;
 * the secret is displayed once").
 */
export const productionEnvironmentSchema = z
  .strictObject({
    /** The client ID the go-live review issues (not a secret; fixed here so a deploy can name it ahead). */
    clientId: z
      .string()
      .regex(/^svc_live_[A-Za-z0-9_-]+$/, 'a production client ID starting with "svc_live_"'),
    /**
     * Only with `approved: true`: the secret its review issued, as you stored it. Without approval
     * there is none; approving (`POST /sandbox/applications/{clientId}/approve` on the production
     * host, or the dashboard) issues one.
     */
    clientSecret: z.string().min(16).optional(),
    webhook: webhookConfigSchema,
    /** Production is "not live until approved": `true` starts it live, with `clientSecret`. */
    approved: z.boolean().default(false),
  })
  .superRefine((production, ctx) => {
    if (production.approved && production.clientSecret === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['clientSecret'],
        message: 'an approved application needs the client secret its go-live review issued',
      });
    }
    if (!production.approved && production.clientSecret !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['clientSecret'],
        message:
          'a production client secret is issued by the go-live review, never before: remove it, or set approved: true if the review passed',
      });
    }
  });
export type ProductionEnvironmentConfig = z.output<typeof productionEnvironmentSchema>;

export const applicationConfigSchema = z.strictObject({
  /** Sandbox client IDs carry the sandbox prefix; a production ID never works on the sandbox host. */
  clientId: z.string().regex(/^svc_test_[A-Za-z0-9_-]+$/, 'a sandbox client ID starting with "svc_test_"'),
  clientSecret: z.string().min(16),
  name: z.string().min(1),
  capabilities: z.array(applicationCapabilitySchema),
  webhook: webhookConfigSchema,
  /** The production environment; without it the application exists in the sandbox environment only. */
  production: productionEnvironmentSchema.optional(),
  /** At most `requests` authenticated API requests per `windowSeconds`; the next one gets SEC-001. */
  rateLimit: z
    .strictObject({ requests: z.number().int().min(1), windowSeconds: z.number().int().min(1) })
    .default({ requests: 600, windowSeconds: 60 }),
});
export type ApplicationConfig = z.output<typeof applicationConfigSchema>;

export const operatorConfigSchema = z.strictObject({
  code: z.string().regex(/^[A-Za-z0-9_-]+$/),
  name: z.string().min(1),
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "TN"'),
  /** A number belongs to the operator when it starts with one of `prefixes` and has `digits` digits after "+". */
  numbering: z.strictObject({
    prefixes: z.array(z.string().regex(/^\+[1-9][0-9]*$/, 'a "+" and digits, e.g. "+2169"')).min(1),
    digits: z.number().int().min(4).max(15),
  }),
  modes: z.array(z.enum(['HOSTED', 'API'])).default(['HOSTED']),
  /** In the operator's order of preference; the consent policy may reorder or narrow them. */
  consentMethods: z.array(consentMethodSchema).min(1),
  operatorConsentPage: z.boolean(),
  instruments: z.array(z.string().min(1)),
});
export type OperatorConfig = z.output<typeof operatorConfigSchema>;

/**
 * An offer as the sandbox sells it: core's offer definition (so starters can hand the same
 * entries to `defineOffers`) plus where and to whom it is sold.
 */
export const sandboxOfferSchema = offerDefinitionSchema.safeExtend({
  active: z.boolean().default(true),
  /** Operator codes the offer is sold on. */
  operators: z.array(z.string().min(1)).min(1),
  /** Client IDs of the applications allowed to sell it. */
  applications: z.array(z.string().min(1)).min(1),
  /** Narrows the consent methods for this offer; default: whatever operator and policy allow. */
  consentMethods: z.array(consentMethodSchema).min(1).optional(),
  /** The offer's name in the checkout's other languages; a language left out shows `name`. */
  names: z.strictObject({ fr: z.string().min(1).optional(), ar: z.string().min(1).optional() }).optional(),
});
export type SandboxOffer = z.output<typeof sandboxOfferSchema>;

export const consentPolicySchema = z.strictObject({
  /** Preference order; the first method both the operator and the offer allow is used. */
  order: z.array(consentMethodSchema).min(1).default(['HEADER_ENRICHMENT', 'PIN', 'MO_SMS']),
  /** Methods allowed per offer type; a type not listed allows every method. */
  allowedByOfferType: z.partialRecord(offerTypeSchema, z.array(consentMethodSchema).min(1)).default({}),
  pin: z
    .strictObject({
      length: z.number().int().min(4).max(8),
      ttlSeconds: z.number().int().min(30),
      maxAttempts: z.number().int().min(1),
    })
    .default({ length: 4, ttlSeconds: 300, maxAttempts: 3 }),
  moSms: z.strictObject({ shortCode: z.string().regex(/^[0-9]{3,8}$/) }).default({ shortCode: '85050' }),
});
export type ConsentPolicy = z.output<typeof consentPolicySchema>;

/**
 * What the mock operator does with a number: at checkout, and at the charges the service runs by
 * itself (trial conversion, renewals, grace retries; see operator/scheduled-charges.ts).
 */
export const TEST_NUMBER_OUTCOMES = [
  'SUCCESS',
  'INSUFFICIENT_BALANCE',
  'DECLINED',
  'OPTED_OUT',
  'INVALID_NUMBER',
  'UNSUPPORTED_OPERATOR',
  'SLOW',
  'RENEWALS_FAIL',
  'RENEWAL_RECOVERS_ON_SECOND_RETRY',
] as const;
export const testNumberOutcomeSchema = z.enum(TEST_NUMBER_OUTCOMES);
export type TestNumberOutcome = z.infer<typeof testNumberOutcomeSchema>;

export const sandboxConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    applications: z.array(applicationConfigSchema).min(1),
    operators: z.array(operatorConfigSchema).min(1),
    offers: z.array(sandboxOfferSchema),
    consentPolicy: consentPolicySchema.default(() => consentPolicySchema.parse({})),
    /** Numbers whose outcome is fixed; any other number of a configured operator succeeds. */
    testNumbers: z.record(e164Schema, testNumberOutcomeSchema).default({}),
    payments: z
      .strictObject({
        /** How long an untouched payment stays open before it is EXPIRED. */
        expirySeconds: z.number().int().min(1),
        /** How long the SLOW test numbers stay PROCESSING. */
        slowOperatorSeconds: z.number().int().min(1),
        /** Artificial real-time latency of POST /v1/payments, to make PAY-104 easy to reach by hand. */
        createLatencyMs: z.number().int().min(0).max(60_000),
      })
      .default({ expirySeconds: 1800, slowOperatorSeconds: 30, createLatencyMs: 0 }),
    webhooks: z
      .strictObject({
        /** Waits before attempts 2, 3, ...; at most 4 entries, so at most 5 attempts. */
        retryDelaysSeconds: z.array(z.number().int().min(1)).max(4),
        /** An attempt with no answer after this long counts as failed. */
        timeoutMs: z.number().int().min(1).max(120_000),
      })
      .default({ retryDelaysSeconds: [60, 600, 3600, 21_600], timeoutMs: 10_000 }),
    /**
     * How long, in sandbox seconds, ended payments (FAILED, EXPIRED, CANCELED, or a one-time
     * purchase SUCCEEDED) and delivered events (DELIVERED, or NOT_POSTED for want of a URL) are
     * kept before they are freed; null keeps them for ever. A subscription's first payment stays
     * while the subscription does; dead-lettered events stay for replay.
     */
    retention: z
      .strictObject({
        endedPaymentsSeconds: z.number().int().min(1).nullable(),
        deliveredEventsSeconds: z.number().int().min(1).nullable(),
      })
      .default({ endedPaymentsSeconds: 30 * 86_400, deliveredEventsSeconds: 30 * 86_400 }),
    /** Delivery chaos (duplicates, reordering, delays, stale signatures, indented bodies); off by default. */
    chaos: chaosSettingsSchema.default(noChaos),
    /** Key of the HMAC that derives subscriberUid from application and number; keep it stable. */
    subscriberUidKey: z.string().min(16),
  })
  .superRefine((config, ctx) => {
    const unique = (values: string[], path: string, what: string) => {
      const seen = new Set<string>();
      values.forEach((value, index) => {
        if (seen.has(value))
          ctx.addIssue({ code: 'custom', path: [path, index], message: `duplicate ${what} ${value}` });
        seen.add(value);
      });
    };
    unique(
      config.applications.map((app) => app.clientId),
      'applications',
      'clientId',
    );
    const liveIds = new Set<string>();
    config.applications.forEach((app, index) => {
      const liveId = app.production?.clientId;
      if (liveId === undefined) return;
      if (liveIds.has(liveId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['applications', index, 'production', 'clientId'],
          message: `duplicate production clientId ${liveId}`,
        });
      }
      liveIds.add(liveId);
    });
    unique(
      config.operators.map((operator) => operator.code),
      'operators',
      'operator code',
    );
    unique(
      config.offers.map((offer) => offer.offerUid),
      'offers',
      'offerUid',
    );
    const operatorCodes = new Set(config.operators.map((operator) => operator.code));
    const clientIds = new Set(config.applications.map((app) => app.clientId));
    config.offers.forEach((offer, index) => {
      for (const code of offer.operators) {
        if (!operatorCodes.has(code)) {
          ctx.addIssue({
            code: 'custom',
            path: ['offers', index, 'operators'],
            message: `unknown operator ${code}`,
          });
        }
      }
      for (const clientId of offer.applications) {
        if (!clientIds.has(clientId)) {
          ctx.addIssue({
            code: 'custom',
            path: ['offers', index, 'applications'],
            message: `unknown application ${clientId}`,
          });
        }
      }
    });
    for (const [msisdn, outcome] of Object.entries(config.testNumbers)) {
      const needsOperator = outcome !== 'INVALID_NUMBER' && outcome !== 'UNSUPPORTED_OPERATOR';
      const owned = config.operators.some((operator) => belongsToOperator(msisdn, operator));
      if (needsOperator && !owned) {
        ctx.addIssue({
          code: 'custom',
          path: ['testNumbers', msisdn],
          message: `${msisdn} (${outcome}) is in no configured operator's numbering`,
        });
      }
    }
  });
export type SandboxConfig = z.output<typeof sandboxConfigSchema>;
/** The config as written in a JSON file (defaults not yet applied). */
export type SandboxConfigInput = z.input<typeof sandboxConfigSchema>;

/** True when the number is in the operator's numbering plan. */
export function belongsToOperator(msisdn: string, operator: Pick<OperatorConfig, 'numbering'>): boolean {
  return (
    msisdn.length === operator.numbering.digits + 1 &&
    operator.numbering.prefixes.some((prefix) => msisdn.startsWith(prefix))
  );
}
