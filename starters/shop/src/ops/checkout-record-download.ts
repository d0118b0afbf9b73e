import type { DcbKit } from '@dcbkit/core';

/**
 * The record of an account's checkouts for a complaint, or of a line's, as a JSON download: each
 * payment in the order it started, with what the shop showed before consent and how it ended
 * (kit.checkoutRecord). A line's record is its accounts' payments that this line consented to.
 */
export async function checkoutRecordDownload(
  kit: DcbKit,
  whose: { accountKeys: readonly string[]; subscriberUid?: string },
): Promise<{ name: string; json: string }> {
  const record = await kit.checkoutRecord(whose);
  // The file's name is the shop's: only letters, digits, - and _ of the line or first account survive.
  const safe = (whose.subscriberUid ?? whose.accountKeys[0] ?? 'account')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 60);
  return { name: `checkouts-${safe}.json`, json: `${JSON.stringify(record, null, 2)}\n` };
}
