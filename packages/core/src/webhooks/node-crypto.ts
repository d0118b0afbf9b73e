import type * as NodeCryptoModule from 'node:crypto';
import { DcbError } from '../errors/dcb-error.js';

export type NodeCrypto = typeof NodeCryptoModule;

interface ProcessWithBuiltins {
  getBuiltinModule?: (id: string) => unknown;
}

// Found at run time rather than imported, so that `@dcbkit/core/webhooks` has no import a bundler
// for an edge runtime (platform neutral, a Worker, the Next.js Edge runtime) cannot resolve.
// process.getBuiltinModule is Node 20.16+, Bun and Deno; null records that it was looked for.
let found: NodeCrypto | null | undefined;

/** node's crypto where the runtime has it, else undefined. */
export function findNodeCrypto(): NodeCrypto | undefined {
  if (found === undefined) found = lookUp() ?? null;
  return found ?? undefined;
}

function lookUp(): NodeCrypto | undefined {
  const process = (globalThis as { process?: ProcessWithBuiltins }).process;
  if (typeof process?.getBuiltinModule !== 'function') return undefined;
  try {
    const crypto = process.getBuiltinModule('node:crypto') as Partial<NodeCrypto> | undefined;
    return typeof crypto?.createHmac === 'function' ? (crypto as NodeCrypto) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * node's crypto for a synchronous call, or a DcbError `crypto_unavailable` naming the async
 * function to use instead: thrown before any check, so that a runtime without it fails on every
 * request alike rather than only on the well-signed ones.
 */
export function nodeCryptoFor(where: string, asyncAlternative: string): NodeCrypto {
  const crypto = findNodeCrypto();
  if (crypto !== undefined) return crypto;
  throw new DcbError(
    'crypto_unavailable',
    `${where} is synchronous and needs node:crypto, which this runtime does not have (an edge runtime such as ` +
      'Cloudflare Workers or the Next.js Edge runtime, or Node before 20.16, which lacks process.getBuiltinModule). ' +
      `Use \`await ${asyncAlternative}(…)\` instead: it runs on Web Crypto, which every edge runtime has.`,
    { details: { use: asyncAlternative } },
  );
}
