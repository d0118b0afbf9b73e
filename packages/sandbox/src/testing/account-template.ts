/**
 * A gate or spend path with `{accountKey}` and `{productUid}` filled in, URL-encoded: how a
 * receiver without sessions is asked about one account's product.
 */
export function forAccount(path: string, accountKey: string, productUid: string): string {
  return path
    .replaceAll('{accountKey}', encodeURIComponent(accountKey))
    .replaceAll('{productUid}', encodeURIComponent(productUid));
}
