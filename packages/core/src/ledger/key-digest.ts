/**
 * A 128-bit digest of a ledger key, written as four 32-bit lanes into `into`: every entry costs the
 * same whatever the ids' lengths, and nothing is allocated. Not cryptographic, and need not be: keys are made of the service's own ids in
 * signed events, so nobody can search for a collision, and at a million keys the chance of an
 * accidental one is below 1e-20. A SHA-256 here cost more than all the rest of the ledger.
 */
export function keyDigestInto(key: string, into: Int32Array): void {
  // Four independent multiply-xor lanes (cyrb53's constants and mixing, widened to 128 bits),
  // run in one pass over the key's UTF-16 code units.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let h3 = 0x9e3779b9;
  let h4 = 0x85ebca6b;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
    h3 = Math.imul(h3 ^ unit, 2246822519);
    h4 = Math.imul(h4 ^ unit, 3266489917);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h3 ^ (h3 >>> 13), 3266489909);
  h3 = Math.imul(h3 ^ (h3 >>> 16), 2246822507) ^ Math.imul(h4 ^ (h4 >>> 13), 3266489909);
  h4 = Math.imul(h4 ^ (h4 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  into[0] = h1;
  into[1] = h2;
  into[2] = h3;
  into[3] = h4;
}
