import { z } from 'zod';

const probability = z.number().min(0).max(1);

/**
 * Delivery chaos, all off by default: what a real network and an at-least-once service can do to
 * webhooks, so a partner can prove its receiver survives it. Every decision comes from a PRNG
 * seeded with `seed`, so the same seed and the same events give the same chaos.
 */
export const chaosSettingsSchema = z.strictObject({
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  /** Share of delivered events posted once more right after (same body, fresh signature). */
  duplicateProbability: probability.default(0),
  /** Share of events held back until a later event of the same application has been posted. */
  reorderProbability: probability.default(0),
  /** Longest an event is held back when no later event comes. */
  reorderHoldSeconds: z.number().int().min(1).max(3600).default(60),
  /** Share of events whose first attempt waits 1 to `maxDelaySeconds` on the sandbox clock. */
  delayProbability: probability.default(0),
  maxDelaySeconds: z.number().int().min(1).max(3600).default(30),
  /**
   * Share of first attempts signed with a timestamp ten minutes old, which a receiver must reject;
   * the retry is always signed fresh, so the event is still delivered.
   */
  staleSignatureProbability: probability.default(0),
  /**
   * Share of events whose body is sent indented: the same JSON in bytes that parsing and
   * re-serialising would not give back, so a receiver that verifies a re-serialised body (say
   * `JSON.stringify(req.body)`) instead of the raw one refuses them. The signature always covers
   * the bytes sent, and every copy of an event has the same bytes.
   */
  indentedBodyProbability: probability.default(0),
});
export type ChaosSettings = z.output<typeof chaosSettingsSchema>;
export type ChaosSettingsInput = z.input<typeof chaosSettingsSchema>;

/** No chaos at all. */
export function noChaos(): ChaosSettings {
  return chaosSettingsSchema.parse({});
}
