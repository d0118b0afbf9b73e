#!/usr/bin/env node
// Type-checks every TypeScript snippet of the documentation (README.md, docs/*.md,
// packages/*/README.md) under the repository's strict compiler options, so that what a partner
// copies from the docs compiles against the current API.
//
//   node scripts/check-doc-snippets.mjs [--keep] [file.md ...]
//
// How a snippet is checked:
// - Every ```ts / ```typescript block is its own ES module (top-level await is fine; `export {}`
//   is appended), written to node_modules/.cache/doc-snippets/ and checked with the options of
//   tsconfig.json, whose `paths` resolve @dcbkit/* to the packages' sources. Other packages resolve
//   to what is installed: a snippet compiles against the real typings of express, koa,
//   express-session, pg… (the root devDependencies hold the ones the docs use).
// - Nothing is added to a snippet that a reader would not have. What it relies on beyond the
//   packages it imports, it declares itself, visibly: the session's data, say, with
//   express-session's documented `declare module 'express-session' { interface SessionData … }`.
//   A snippet that declares types (`declare module`, `declare global`) is checked in a program of
//   its own, so what it declares reaches no other snippet; the others share one program.
// - A snippet may use the reader's own objects that the doc's prose names without defining them,
//   with contexts from SNIPPET_CONTEXTS below: either in the fence (```ts context=express,kit,
//   invisible once rendered) or with a leading comment line `// @snippet-context express, kit`.
//   Each context prepends a few `declare const` lines for those objects (an Express `app`, the
//   `kit`, your `offers`…), typed with the real packages' types, so the snippet itself stays as a
//   reader would write it. A context declares values only, never a type a library lacks.
// - ```ts nocheck opts a block out. Keep that for fragments that are deliberately partial (an
//   interface sketched with untyped parameters, say), and say so in the doc.
// - The reference tables stay complete: every code of DCB_ERROR_CODES and of the spec's
//   ERROR_CODES has a row in docs/errors.md, every variable of DCB_ENV_VARIABLES one in
//   docs/configuration.md, and every variable of DCB_ENV_VARIABLES and of the shop's
//   SHOP_ENV_VARIABLES one in docs/going-live.md (read from the sources through the same program).
// Errors are printed as file:line of the markdown; the exit code is 1 on any error.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workDir = join(root, 'node_modules', '.cache', 'doc-snippets');

/**
 * What a snippet may take as given: the reader's own objects. Keep each line a plain `declare
 * const` (or function) a reader would recognise from the doc's prose ("your Express app", "the kit
 * you made with createDcbKit"), typed with the packages' real types: never a type or an
 * augmentation a library does not provide (a snippet that needs one declares it itself).
 */
const SNIPPET_CONTEXTS = {
  // The kit, made once with createDcbKit (docs/configuration.md).
  kit: `declare const kit: import('@dcbkit/core').DcbKit;`,
  // Your offers (defineOffers) and their plain list.
  offers: `declare const offers: import('@dcbkit/core').Offers;
declare const offerList: import('@dcbkit/core').OfferDefinitionInput[];`,
  // The pieces made by the lower-level constructors.
  parts: `declare const client: import('@dcbkit/core').DcbClient;
declare const store: import('@dcbkit/core/store').EntitlementStore & import('@dcbkit/core/store').ReconcileStore;
declare const ledger: import('@dcbkit/core/store').EventLedger;
declare const handler: import('@dcbkit/core/web').WebhookHandler;
declare const routes: import('@dcbkit/core/web').PartnerRoutes;`,
  // An Express app and one of its pages.
  express: `declare const app: import('express').Express;
declare const showPremium: import('express').RequestHandler;`,
  // A Koa app and one of its pages.
  koa: `declare const app: import('koa');
declare const showPremium: import('koa').Middleware;`,
  // The app's @koa/router router.
  'koa-router': `declare const router: import('@koa/router').default;`,
  // A Fastify app and one of its pages.
  fastify: `declare const app: import('fastify').FastifyInstance;
declare const showPremium: import('fastify').RouteHandlerMethod;`,
  // A webhook request as any framework has it, and the signing secrets.
  webhook: `declare const rawBody: Buffer;
declare const headers: Record<string, string | string[] | undefined>;
declare const signature: string | undefined;
declare const secret: string;
declare const secrets: string[];`,
  // A request in your own server code: the signed-in user, an order, a response.
  request: `declare const user: { id: string };
declare const order: { id: string };
declare const res: import('express').Response;
declare const req: import('express').Request;`,
  // The logger and error tracker of your app.
  app: `declare const logger: import('@dcbkit/core').DcbLogger & Required<Pick<import('@dcbkit/core').DcbLogger, 'error' | 'warn'>>;
declare function reportToTracker(error: Error, tags: Record<string, unknown>): void;
declare const mailer: {
  welcome(accountKey: string, productUid: string): Promise<void>;
  trialEnding(accountKey: string): Promise<void>;
};`,
  // A running sandbox emulator and a payment made against it.
  sandbox: `declare const sandbox: import('@dcbkit/sandbox').Sandbox;
declare const payment: import('@dcbkit/core').Payment;`,
  // Your PostgreSQL pool (pg's).
  pg: `declare const pool: import('pg').Pool;`,
};

/**
 * Each table must have a row (first cell: the name in backticks) for every key of the constant,
 * and the cells named in `columns` must start with the constant's value (`.` for the entry itself,
 * else one of its properties; a missing property means an empty cell).
 */
const REFERENCE_TABLES = [
  {
    doc: 'docs/errors.md',
    source: 'packages/core/src/errors/error-codes.ts',
    constant: 'DCB_ERROR_CODES',
    columns: { group: 1, httpStatus: 2, meaning: 3 },
  },
  {
    doc: 'docs/errors.md',
    source: 'packages/core/src/schemas/api-error-codes.ts',
    constant: 'ERROR_CODES',
    columns: { httpStatus: 1, meaning: 3 },
  },
  {
    doc: 'docs/configuration.md',
    source: 'packages/core/src/kit/config-from-env.ts',
    constant: 'DCB_ENV_VARIABLES',
    columns: { '.': 2 },
    value: (text) => text.replace(/^optional: /, ''),
  },
  // The table of every production variable: a row for each variable the shop reads.
  {
    doc: 'docs/going-live.md',
    source: 'packages/core/src/kit/config-from-env.ts',
    constant: 'DCB_ENV_VARIABLES',
    columns: {},
  },
  {
    doc: 'docs/going-live.md',
    source: 'starters/shop/src/config.ts',
    constant: 'SHOP_ENV_VARIABLES',
    columns: {},
  },
];

/** The rows of the markdown tables of a file whose first cell is a name in backticks, by name. */
function tableRows(file) {
  const rows = new Map();
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (!/^\|\s*`[^`]+`\s*\|/.test(line)) continue;
    const cells = line
      .replace(/^\|/, '')
      .replace(/\|\s*$/, '')
      .split('|')
      .map((cell) => cell.trim());
    const name = cells[0]?.replace(/`/g, '') ?? '';
    if (!rows.has(name)) rows.set(name, cells);
  }
  return rows;
}

/** The literal value of a type (a string or number literal), or undefined. */
function literalOf(type) {
  if (type === undefined) return undefined;
  if (type.isStringLiteral() || type.isNumberLiteral()) return String(type.value);
  return undefined;
}

/** An exported constant's entries as { key, values: { '.': …, property: … } }, from the type checker. */
function constantEntries(program, sourcePath, constant, properties) {
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(sourcePath);
  const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === constant);
  if (!symbol || !sourceFile) return undefined;
  return checker
    .getTypeOfSymbolAtLocation(symbol, sourceFile)
    .getProperties()
    .map((entry) => {
      const entryType = checker.getTypeOfSymbolAtLocation(entry, sourceFile);
      const values = {};
      for (const property of properties) {
        if (property === '.') {
          values[property] = literalOf(entryType) ?? '';
          continue;
        }
        const found = entryType.getProperty(property);
        values[property] = found
          ? (literalOf(checker.getTypeOfSymbolAtLocation(found, sourceFile)) ?? '')
          : '';
      }
      return { key: entry.name, values };
    });
}

const normalise = (text) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim();

function referenceTableProblems(program) {
  const problems = [];
  for (const { doc, source, constant, columns, value = (text) => text } of REFERENCE_TABLES) {
    const entries = constantEntries(program, join(root, source), constant, Object.keys(columns));
    if (entries === undefined) {
      problems.push(
        `${source}: ${constant} not found (update REFERENCE_TABLES in scripts/check-doc-snippets.mjs)`,
      );
      continue;
    }
    const rows = tableRows(join(root, doc));
    for (const { key, values } of entries) {
      const row = rows.get(key);
      if (row === undefined) {
        problems.push(`${doc}: no table row for \`${key}\` of ${constant} (${source})`);
        continue;
      }
      for (const [property, column] of Object.entries(columns)) {
        const expected = normalise(value(values[property]));
        const cell = normalise(row[column] ?? '');
        const matches = expected === '' ? cell === '' : cell.startsWith(expected);
        if (!matches) {
          const what = property === '.' ? '' : `${property} `;
          problems.push(
            `${doc}: the row of \`${key}\` says "${cell}" where ${constant} has ${what}"${expected}"`,
          );
        }
      }
    }
  }
  return problems;
}

function markdownFiles(argv) {
  const named = argv.filter((arg) => !arg.startsWith('--'));
  if (named.length > 0) return named.map((file) => resolve(file));
  const files = [join(root, 'README.md')];
  for (const name of readdirSync(join(root, 'docs')).sort()) {
    if (name.endsWith('.md')) files.push(join(root, 'docs', name));
  }
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const readme = join(root, 'packages', name, 'README.md');
    try {
      readFileSync(readme);
      files.push(readme);
    } catch {
      // a package without a README
    }
  }
  return files;
}

const FENCE_OPEN = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\b(.*)$/;
const FENCE_ANY = /^(\s*)(`{3,}|~{3,})(.*)$/;
const CONTEXT_COMMENT = /^\s*\/\/\s*@snippet-context\s+(.+)$/;

/** The ts blocks of one markdown file: { line (1-based, of the first code line), code, contexts, skip }. */
function extractSnippets(file) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const snippets = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = FENCE_OPEN.exec(line);
    if (!open) {
      // Skip other fenced blocks whole, so a ```ts inside a ```md example is not taken for a snippet.
      const other = FENCE_ANY.exec(line);
      if (other) {
        const [, , fence] = other;
        for (i++; i < lines.length; i++) {
          if ((lines[i] ?? '').trim().startsWith(fence)) break;
        }
      }
      continue;
    }
    const [, indent, fence, , info] = open;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const contexts = [];
    let skip = false;
    for (const word of words) {
      if (word === 'nocheck' || word === 'no-check') skip = true;
      else if (word.startsWith('context=')) contexts.push(...word.slice(8).split(',').filter(Boolean));
    }
    const start = i + 1;
    const body = [];
    for (i++; i < lines.length; i++) {
      const current = lines[i] ?? '';
      if (current.trim().startsWith(fence) && current.trim().replace(/[`~]/g, '') === '') break;
      body.push(current.startsWith(indent) ? current.slice(indent.length) : current);
    }
    for (const codeLine of body) {
      const declared = CONTEXT_COMMENT.exec(codeLine);
      if (declared) contexts.push(...declared[1].split(/[\s,]+/).filter(Boolean));
      else if (codeLine.trim() !== '') break;
    }
    snippets.push({ file, line: start + 1, code: body.join('\n'), contexts, skip });
  }
  return snippets;
}

function compilerOptions() {
  const configPath = join(root, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  // The repository names its global typings (`types: ["node"]`); an app's tsconfig usually does not,
  // so TypeScript takes every installed @types package, as it does here: a snippet's
  // `declare module 'express-session'` then augments the typings a reader has installed.
  const { types: _repositoryTypes, ...options } = parsed.options;
  return { ...options, noEmit: true, declaration: false, incremental: false, composite: false };
}

/** Whether a snippet declares types for the whole program (a module augmentation, say). */
const DECLARES_TYPES = /^\s*declare\s+(module|global)\b/m;

/**
 * A compiler host that parses each file once for all the programs: the packages' sources and
 * typings are the same in each, only the snippets differ.
 */
function cachingHost(options) {
  const host = ts.createCompilerHost(options);
  const parsed = new Map();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreateNew) => {
    const cached = parsed.get(fileName);
    if (cached !== undefined && !shouldCreateNew) return cached;
    const sourceFile = getSourceFile(fileName, languageVersion, onError, shouldCreateNew);
    if (sourceFile !== undefined) parsed.set(fileName, sourceFile);
    return sourceFile;
  };
  return host;
}

/** The program's own diagnostics and those of the given files. */
function diagnosticsOf(program, fileNames) {
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...fileNames.flatMap((name) => {
      const sourceFile = program.getSourceFile(name);
      if (!sourceFile) return [];
      return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    }),
  ];
}

function main() {
  const argv = process.argv.slice(2);
  const keep = argv.includes('--keep');
  const files = markdownFiles(argv);
  const snippets = files.flatMap(extractSnippets);
  const problems = [];

  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });

  /** Snippet module path -> where its code starts in the markdown. */
  const origins = new Map();
  let skipped = 0;
  snippets.forEach((snippet, index) => {
    if (snippet.skip) {
      skipped++;
      return;
    }
    const prelude = [];
    for (const name of new Set(snippet.contexts)) {
      const context = SNIPPET_CONTEXTS[name];
      if (context === undefined) {
        problems.push(
          `${relative(root, snippet.file)}:${snippet.line - 1}: unknown snippet context "${name}" (known: ${Object.keys(SNIPPET_CONTEXTS).join(', ')})`,
        );
        continue;
      }
      prelude.push(`// context: ${name}`, context);
    }
    const preludeText = prelude.length > 0 ? `${prelude.join('\n')}\n` : '';
    const preludeLines = preludeText === '' ? 0 : preludeText.split('\n').length - 1;
    const name = `${relative(root, snippet.file).replace(/[^a-zA-Z0-9]+/g, '_')}_L${snippet.line}_${index}.ts`;
    const path = join(workDir, name);
    writeFileSync(path, `${preludeText}${snippet.code}\nexport {};\n`);
    origins.set(resolve(path), { snippet, preludeLines });
  });

  const checkTables = argv.every((arg) => arg.startsWith('--'));
  const tableSources = checkTables ? REFERENCE_TABLES.map(({ source }) => join(root, source)) : [];
  const options = compilerOptions();
  const host = cachingHost(options);
  const snippetFiles = [...origins.keys()];
  const declaringTypes = snippetFiles.filter((path) => DECLARES_TYPES.test(origins.get(path).snippet.code));
  const shared = snippetFiles.filter((path) => !declaringTypes.includes(path));
  const program = ts.createProgram({ rootNames: [...shared, ...tableSources], options, host });
  const diagnostics = diagnosticsOf(program, shared);
  let previous = program;
  for (const path of declaringTypes) {
    const alone = ts.createProgram({ rootNames: [path], options, host, oldProgram: previous });
    diagnostics.push(...diagnosticsOf(alone, [path]));
    previous = alone;
  }

  for (const diagnostic of diagnostics) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n    ');
    const origin = diagnostic.file ? origins.get(resolve(diagnostic.file.fileName)) : undefined;
    if (!diagnostic.file || diagnostic.start === undefined) {
      const problem = `TS${diagnostic.code}: ${message}`;
      if (!problems.includes(problem)) problems.push(problem);
      continue;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    if (!origin) {
      problems.push(
        `${relative(root, diagnostic.file.fileName)}:${line + 1}: TS${diagnostic.code}: ${message}`,
      );
      continue;
    }
    const { snippet, preludeLines } = origin;
    const where =
      line < preludeLines
        ? `${relative(root, snippet.file)}:${snippet.line - 1} (in the prelude of its contexts)`
        : `${relative(root, snippet.file)}:${snippet.line + line - preludeLines}`;
    problems.push(`${where}: TS${diagnostic.code}: ${message}`);
  }

  if (checkTables) problems.push(...referenceTableProblems(program));

  if (!keep) rmSync(workDir, { recursive: true, force: true });
  const checked = origins.size;
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error(
      `\ncheck-doc-snippets: ${problems.length} error(s) in ${checked} snippet(s) of ${files.length} file(s)` +
        `${skipped ? ` (${skipped} marked nocheck)` : ''}.`,
    );
    process.exit(1);
  }
  console.log(
    `check-doc-snippets: ${checked} snippet(s) in ${files.length} file(s) compile` +
      `${skipped ? ` (${skipped} marked nocheck)` : ''}.`,
  );
}

main();
