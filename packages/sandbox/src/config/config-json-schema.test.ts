import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from './config-json-schema.js';

const committed = new URL('./config-schema.json', import.meta.url);

describe('the published config JSON Schema', () => {
  it('is the zod schema, as committed (UPDATE_CONFIG_SCHEMA=1 rewrites it)', () => {
    const generated = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_CONFIG_SCHEMA === '1') writeFileSync(committed, generated);
    expect(readFileSync(committed, 'utf8')).toBe(generated);
  });

  it('describes the default config: every top-level key and the production block', () => {
    const schema = configJsonSchema() as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['applications', 'operators', 'offers', 'testNumbers', 'subscriberUidKey']),
    );
    expect(schema.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).toContain('^svc_live_');
  });
});
