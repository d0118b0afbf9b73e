import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ApiAnswer } from '../environment/api-routes.js';
import { OPENAPI_DOCUMENT } from '../openapi/openapi-document.js';

// ajv-formats is CommonJS with a default export; under Node's ESM loader the function is `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const DOCUMENT_ID = 'https://dcbkit.dev/sandbox/openapi.json';

/** An answer or an event of the emulator that does not keep to the OpenAPI document. */
export class OpenApiViolation extends Error {
  override readonly name = 'OpenApiViolation';
}

interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * Checks the emulator's answers and webhook events against its OpenAPI document, with ajv
 * (JSON Schema 2020-12, the dialect of OpenAPI 3.1): each answer's status must be one the
 * operation documents, its body the schema of that response (the error envelope with the codes
 * that status may carry), its Retry-After the body's retryAfterSeconds.
 */
export function openApiContract() {
  // The document is not itself a schema: its schemas are reached by JSON pointer into it.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(OPENAPI_DOCUMENT as object, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate;
  };
  const paths = OPENAPI_DOCUMENT.paths as Record<string, Record<string, Operation>>;

  function checkAnswer(answer: ApiAnswer): void {
    const path = answer.path.replace(/:(\w+)/g, '{$1}');
    const operation = paths[path]?.[answer.method.toLowerCase()];
    const where = `${answer.method} ${answer.path} answered ${answer.status}`;
    if (!operation) throw new OpenApiViolation(`${answer.method} ${path} is not in the document.`);
    const documented = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find(
      (key) => operation.responses[key] !== undefined,
    );
    if (!documented) {
      throw new OpenApiViolation(
        `${where}: the document gives ${Object.keys(operation.responses).join(', ')} (${answer.body})`,
      );
    }
    const contentType = answer.headers['content-type'] ?? '';
    if (!contentType.startsWith('application/json')) {
      throw new OpenApiViolation(`${where} with content-type "${contentType}", not application/json.`);
    }
    const body: unknown = JSON.parse(answer.body);
    const pointer = `/paths/${pointerSegment(path)}/${answer.method.toLowerCase()}/responses/${documented}/content/application~1json/schema`;
    failOn(validatorAt(pointer), body, where);
    const retryAfter = (body as { error?: { retryAfterSeconds?: number } }).error?.retryAfterSeconds;
    if (retryAfter !== undefined && answer.headers['retry-after'] !== String(retryAfter)) {
      throw new OpenApiViolation(
        `${where}: retryAfterSeconds ${retryAfter} without the same Retry-After header.`,
      );
    }
  }

  /** A webhook as posted: the event's body and its Service-Signature header. */
  function checkEvent(rawBody: string, signature: string | null): void {
    const where = 'a webhook event';
    const header = (OPENAPI_DOCUMENT.webhooks as Record<string, Record<string, { parameters: unknown[] }>>)
      .event?.post?.parameters?.[0] as { schema: { pattern: string } } | undefined;
    if (!signature || !new RegExp(header?.schema.pattern ?? '^$').test(signature)) {
      throw new OpenApiViolation(`${where} signed "${signature}", not as the document's Service-Signature.`);
    }
    failOn(
      validatorAt('/webhooks/event/post/requestBody/content/application~1json/schema'),
      JSON.parse(rawBody),
      where,
    );
  }

  return { checkAnswer, checkEvent };
}

function pointerSegment(path: string): string {
  return path.replaceAll('~', '~0').replaceAll('/', '~1');
}

function failOn(validate: ValidateFunction, value: unknown, where: string): void {
  if (validate(value)) return;
  const problems = (validate.errors ?? []).map(
    (error: ErrorObject) =>
      `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
  throw new OpenApiViolation(
    `${where} does not keep to the document: ${problems.join('; ')}; body ${JSON.stringify(value)}`,
  );
}
