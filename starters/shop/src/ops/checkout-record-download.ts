import type { DcbKit } from '@dcbkit/core';

/**
 * The record of an account's checkouts for a complaint, as a JSON download: each payment in the
 * order it started, with what the shop showed before consent and how it ended (kit.checkoutRecord).
 * The kit takes a set of accounts, so a line's record is this with the line's accounts.
 */
export async function checkoutRecordDownload(
  kit: DcbKit,
  accountKeys: readonly string[],
): Promise<{ name: string; json: string }> {
  const record = await kit.checkoutRecord({ accountKeys });
  // The file's name is the shop's: only letters, digits, - and _ of the first account survive.
  const safe = (accountKeys[0] ?? 'account').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);
  return { name: `checkouts-${safe}.json`, json: `${JSON.stringify(record, null, 2)}\n` };
}
