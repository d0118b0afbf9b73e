/**
 * Issue 39: core's zod schemas (what the client and the webhook handler accept) and the sandbox's
 * OpenAPI document (what the emulator answers) describe one service. Each pair below must name
 * the same properties, require the same ones and allow the same values of every enumeration: a
 * field added to one and not the other fails here.
 */
import {
  capabilitiesSchema,
  createPaymentRequestSchema,
  errorEnvelopeSchema,
  moneySchema,
  paymentSchema,
  subscriptionCancelRequestSchema,
  subscriptionSchema,
  tokenResponseSchema,
  webhookEventSchema,
} from '@dcbkit/core/schemas';
import { OPENAPI_DOCUMENT } from '@dcbkit/sandbox';
import { describe, expect, it } from 'vitest';
import { toJSONSchema, type ZodType } from 'zod';

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const components = (OPENAPI_DOCUMENT.components as { schemas: Record<string, JsonSchema> }).schemas;

/** The document's schema with its `$ref`s to components followed. */
function resolved(schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = components[name];
  if (!target) throw new Error(`no component ${name}`);
  return resolved(target);
}

/** The values a property allows, when it is an enumeration or a constant (null from nullable left out). */
function allowedValues(schema: JsonSchema | undefined): unknown[] | undefined {
  if (!schema) return undefined;
  const own = resolved(schema);
  if (own.enum) return [...own.enum].filter((value) => value !== null).sort();
  if (own.const !== undefined) return [own.const];
  for (const part of own.anyOf ?? []) {
    const values = allowedValues(part);
    if (values) return values;
  }
  return undefined;
}

/** What the comparison looks at: property names, the required ones, and each enumeration. */
function shapeOf(schema: JsonSchema) {
  const object = resolved(schema);
  const properties = object.properties ?? {};
  return {
    properties: Object.keys(properties).sort(),
    required: [...(object.required ?? [])].sort(),
    values: Object.fromEntries(
      Object.entries(properties)
        .map(([name, property]) => [name, allowedValues(property)] as const)
        .filter(([, values]) => values !== undefined),
    ),
  };
}

function zodShape(schema: ZodType) {
  return shapeOf(toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema);
}

const PAIRS: Array<[string, ZodType]> = [
  ['Payment', paymentSchema],
  ['Subscription', subscriptionSchema],
  ['WebhookEvent', webhookEventSchema],
  ['Capabilities', capabilitiesSchema],
  ['CreatePaymentRequest', createPaymentRequestSchema],
  ['CancelSubscriptionRequest', subscriptionCancelRequestSchema],
  ['Money', moneySchema],
  ['ErrorEnvelope', errorEnvelopeSchema],
];

describe("core's zod schemas and the OpenAPI document", () => {
  it.each(PAIRS)('%s: the same properties, required ones and enumerations', (name, schema) => {
    const documented = components[name];
    if (!documented) throw new Error(`the document has no ${name}`);
    const zod = zodShape(schema);
    const openapi = shapeOf(documented);
    expect(zod.properties).toEqual(openapi.properties);
    expect(zod.required).toEqual(openapi.required);
    // The document may pin a value core leaves open (status CANCELED of a cancelled payment):
    // every enumeration core has, the document has the same.
    for (const [property, values] of Object.entries(zod.values)) {
      expect(openapi.values[property], `${name}.${property}`).toEqual(values);
    }
  });

  it("the error body's fields, and the token's", () => {
    const envelope = resolved(components.ErrorEnvelope as JsonSchema);
    const errorBody = toJSONSchema(errorEnvelopeSchema, {
      unrepresentable: 'any',
      io: 'input',
    }) as JsonSchema;
    expect(shapeOf(envelope.properties?.error as JsonSchema).properties).toEqual(
      shapeOf(errorBody.properties?.error as JsonSchema).properties,
    );
    expect(shapeOf(components.TokenResponse as JsonSchema).properties).toEqual(
      zodShape(tokenResponseSchema).properties,
    );
  });
});
