// A built subpath of @dcbkit/core as an edge runtime's bundler sees it: the `import` file of
// package.json's exports, bundled by esbuild for `platform: 'neutral'` (where no node builtin
// resolves), and a realm to run it in that has what every edge runtime has and nothing of node
// (no process, no Buffer, no require). Shared by webhooks/ and web/ neutral-bundle tests.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { type BuildOptions, build } from 'esbuild';

const coreRoot = fileURLToPath(new URL('../../', import.meta.url));
const distRoot = join(coreRoot, 'dist');
const manifest = JSON.parse(readFileSync(join(coreRoot, 'package.json'), 'utf8'));

export const NEUTRAL = {
  bundle: true,
  platform: 'neutral',
  write: false,
  metafile: true,
  logLevel: 'silent',
} as const satisfies BuildOptions;

/** The built file a subpath (`./webhooks`) loads for `import`. */
export function builtEntryOf(subpath: string): string {
  return join(coreRoot, manifest.exports[subpath].import.default);
}

/** The subpath's built entry, bundled as an edge bundler would: the code, and the files it took in. */
export async function bundleEntry(
  subpath: string,
  format: 'esm' | 'iife',
  globalName = 'dcbkit',
): Promise<{ code: string; inputs: string[] }> {
  const { outputFiles, metafile } = await build({
    ...NEUTRAL,
    entryPoints: [builtEntryOf(subpath)],
    format,
    globalName: format === 'iife' ? globalName : undefined,
  });
  return { code: outputFiles[0]?.text ?? '', inputs: Object.keys(metafile.inputs) };
}

/**
 * Why the subpath's build cannot be tested, or undefined: missing, or a built file older than a
 * source of its own (dependencies in node_modules are taken as they are).
 */
export async function whyNotBuilt(subpath: string): Promise<string | undefined> {
  try {
    for (const input of (await bundleEntry(subpath, 'esm')).inputs) {
      const file = resolve(input);
      if (!file.startsWith(distRoot)) continue;
      const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
      for (const source of map.sources) {
        const path = resolve(dirname(file), source);
        if (statSync(path).mtimeMs > statSync(file).mtimeMs) return `${input} is older than ${path}`;
      }
    }
    return undefined;
  } catch (error) {
    return `no usable build of @dcbkit/core${subpath.slice(1)} (${(error as Error).message.split('\n')[0]})`;
  }
}

/** The web APIs an edge runtime has (Cloudflare Workers, Vercel Edge, Deno): no process, Buffer or require. */
const WEB_GLOBALS = {
  crypto: globalThis.crypto,
  TextEncoder,
  TextDecoder,
  URL,
  URLSearchParams,
  Request,
  Response,
  Headers,
  ReadableStream,
  setTimeout,
  clearTimeout,
  setInterval,
  clearInterval,
  queueMicrotask,
  performance,
};

/** Runs an iife bundle in a realm that has only `globals` (by default, the web APIs of an edge runtime). */
export function edgeRealm<Exports>(
  code: string,
  globalName: string,
  globals: Record<string, unknown> = WEB_GLOBALS,
): { exports: Exports; evaluate: (source: string) => unknown } {
  const context = createContext({ ...globals });
  runInContext(code, context);
  return {
    exports: (context as Record<string, unknown>)[globalName] as Exports,
    evaluate: (source) => runInContext(source, context),
  };
}

/** The least a verifier needs: Web Crypto and the encoders. */
export const CRYPTO_GLOBALS = { crypto: globalThis.crypto, TextEncoder, TextDecoder };
