import { z } from 'zod';
import { sandboxConfigSchema } from './config-schema.js';

/** Where the published schema says it lives, for editors that follow `$id`. */
export const CONFIG_SCHEMA_ID = 'https://unpkg.com/@dcbkit/sandbox/dist/config-schema.json';

/**
 * The JSON Schema of a sandbox config file, as written (defaults not yet applied), generated from
 * the zod schema. Cross-field rules (unique IDs, known operators) are checked only by the sandbox.
 * Published as `@dcbkit/sandbox/config-schema.json`; config-json-schema.test.ts keeps the committed
 * copy equal to this.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(sandboxConfigSchema, { io: 'input', target: 'draft-2020-12' });
  return {
    ...schema,
    $id: CONFIG_SCHEMA_ID,
    title: 'dcbkit sandbox config',
    description:
      'Applications (with their sandbox and production credentials), operators, offers, consent policy, test numbers and delivery settings of @dcbkit/sandbox. See docs/sandbox.md.',
  };
}
