import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { CliUsageError } from './parse-cli-args.js';

const pathSchema = z.string().regex(/^\/(?!\/)/, "a path on your app starting with one '/'");

/**
 * `dcbkit-sandbox check --config FILE`: the check through an app's own pages, declared in JSON
 * (what `runPartnerCheck` takes as functions): how an account signs in, the accounts, the paths,
 * the products and where each shows access.
 */
const checkConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  /** Your running app, on this machine. */
  appUrl: z.url({ protocol: /^https?$/ }),
  /** The secret your app verifies webhooks with; `--webhook-secret` overrides it. */
  webhookSecret: z.string().min(16).optional(),
  signIn: z.strictObject({
    path: pathSchema,
    fields: z.record(z.string(), z.string()),
    page: pathSchema.optional(),
  }),
  accounts: z
    .strictObject({ renewing: z.string().min(1), lapsing: z.string().min(1), expiring: z.string().min(1) })
    .partial()
    .optional(),
  paths: z
    .strictObject({
      webhook: pathSchema,
      checkout: pathSchema,
      offersPage: pathSchema,
      accountPage: pathSchema,
    })
    .partial()
    .optional(),
  products: z
    .array(
      z.strictObject({
        offerUid: z.string().min(1),
        gatePath: pathSchema.optional(),
        spendPath: pathSchema.optional(),
      }),
    )
    .min(1)
    .optional(),
  seed: z.number().int().min(0).optional(),
});

export type CheckConfig = z.infer<typeof checkConfigSchema>;

/** Reads and checks the file; every problem is a CliUsageError naming the field. */
export async function readCheckConfig(path: string): Promise<CheckConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliUsageError(`--config ${path} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`--config ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = checkConfigSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`,
    );
    throw new CliUsageError(`--config ${path}: ${problems.join('; ')}`);
  }
  return parsed.data;
}
