#!/usr/bin/env node
// The public API of every published package, one Markdown report per entry point, committed as
// packages/<pkg>/api/<entry>.api.md (entry `.` -> index.api.md, `./schemas` -> schemas.api.md):
// every export of the entry, sorted by name, with its kind and its declaration as the TypeScript
// checker prints it (types expanded, interfaces and classes member by member, so that a renamed
// property or a changed parameter shows up as a one-line diff in review).
//
//   node scripts/api-report.mjs --update    (pnpm api:update) writes the reports
//   node scripts/api-report.mjs --check     (pnpm check:api) fails when a report differs
//
// It reads the built declarations (the `import` condition's `types` of each `exports` subpath, JSON
// and ./package.json subpaths excepted), so run it after `pnpm build`.
//
// Why not API Extractor: it takes ONE entry point per configuration (mainEntryPointFilePath;
// several entry points per package are still unsupported, microsoft/rushstack#1596), so each of our
// ten subpaths would need its own configuration and its own analysis; it also runs its own pinned
// copy of the TypeScript compiler rather than the project's, and expects TSDoc release tags
// (@public/@beta: one warning per untagged export until configured away). This script reads every
// subpath of every package in one ts.Program with the project's TypeScript, in a second or two.
//
// Reading a report: names are printed as declared, without module qualification (a type that is
// not exported by the entry appears by its bare name); `private` and `#private` class members are
// left out; rollup renames (`Foo$1`) are undone.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { adapters } = JSON.parse(readFileSync(join(root, 'scripts/adapters.json'), 'utf8'));
const PACKAGES = ['core', ...adapters, 'sandbox', 'store-postgres'];
const HINT = 'run pnpm api:update and commit the report';
/** Code-unit order: the same on every machine, whatever its locale. */
const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

const mode = process.argv[2];
if (mode !== '--update' && mode !== '--check') {
  console.error('usage: node scripts/api-report.mjs --update | --check');
  process.exit(2);
}
const started = performance.now();

// ---- entries ---------------------------------------------------------------------------------

/** @returns {{ pkg: string, name: string, subpath: string, report: string, types: string }[]} */
function entriesOf(pkg) {
  const dir = join(root, 'packages', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (subpath === './package.json' || subpath.endsWith('.json')) continue;
    const types = typeof target === 'object' ? (target.import?.types ?? target.types) : undefined;
    if (typeof types !== 'string') {
      throw new Error(`packages/${pkg}: exports["${subpath}"] has no import.types to report on`);
    }
    const base = subpath === '.' ? 'index' : subpath.replace(/^\.\//, '').replaceAll('/', '-');
    entries.push({
      pkg,
      name: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      subpath,
      report: join(dir, 'api', `${base}.api.md`),
      types: join(dir, types),
    });
  }
  return entries;
}

const entries = PACKAGES.flatMap(entriesOf);
const missing = entries.filter((entry) => !existsSync(entry.types));
if (missing.length > 0) {
  for (const entry of missing) console.error(`missing ${relative(root, entry.types)}`);
  console.error('api-report: build the packages first (pnpm build).');
  process.exit(1);
}

// ---- program ---------------------------------------------------------------------------------

const program = ts.createProgram({
  rootNames: entries.map((entry) => entry.types),
  options: {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    types: ['node'],
  },
});
const checker = program.getTypeChecker();

// A declaration that does not resolve (a missing import, say) would print as `any` and hide an API
// change: the built declarations must check cleanly.
const problems = entries.flatMap((entry) =>
  ts.getPreEmitDiagnostics(program, program.getSourceFile(entry.types)),
);
if (problems.length > 0) {
  const host = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  };
  console.error(ts.formatDiagnostics(problems, host));
  console.error('api-report: the built declarations do not type-check.');
  process.exit(1);
}

// ---- printing --------------------------------------------------------------------------------

const printer = ts.createPrinter({ removeComments: true, omitTrailingSemicolon: true });
const scratch = ts.createSourceFile('api.d.ts', '', ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
const NODE_FLAGS =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.MultilineObjectLiterals |
  ts.NodeBuilderFlags.UseSingleQuotesForStringLiteralType |
  ts.NodeBuilderFlags.IgnoreErrors;

/** `Foo$1` (a rollup rename) -> `Foo`; 4-space printer indentation -> 2 spaces. */
function tidy(text) {
  return text
    .replace(/\b([A-Za-z_][\w]*)\$\d+\b/g, '$1')
    .replace(/^( {4})+/gm, (indent) => ' '.repeat(indent.length / 2));
}
const print = (node) => tidy(printer.printNode(ts.EmitHint.Unspecified, normalize(node), scratch));

/**
 * Makes the text independent of the checker's internal type order and drops what an optional
 * member says twice: union members sorted (null and undefined last; the checker orders them by
 * type creation, which any unrelated change can shuffle), and `x?: T | undefined` printed `x?: T`.
 */
function normalize(node) {
  const { factory } = ts;
  const textOf = (member) => printer.printNode(ts.EmitHint.Unspecified, member, scratch);
  const isNullish = (member) =>
    member.kind === ts.SyntaxKind.UndefinedKeyword ||
    (ts.isLiteralTypeNode(member) && member.literal.kind === ts.SyntaxKind.NullKeyword);
  const rank = (member) => (member.kind === ts.SyntaxKind.UndefinedKeyword ? 2 : isNullish(member) ? 1 : 0);
  const withoutUndefined = (type) => {
    if (!type || !ts.isUnionTypeNode(type)) return type;
    const rest = type.types.filter((member) => member.kind !== ts.SyntaxKind.UndefinedKeyword);
    if (rest.length === type.types.length) return type;
    if (rest.length > 1) return factory.updateUnionTypeNode(type, factory.createNodeArray(rest));
    return rest[0] && ts.isParenthesizedTypeNode(rest[0]) ? rest[0].type : rest[0];
  };
  const transformer = (context) => {
    const visit = (child) => {
      const visited = ts.visitEachChild(child, visit, context);
      if (ts.isUnionTypeNode(visited)) {
        const sorted = visited.types
          .map((member) => ({ member, rank: rank(member), text: textOf(member) }))
          .sort((a, b) => a.rank - b.rank || compare(a.text, b.text))
          .map(({ member }) => member);
        return factory.updateUnionTypeNode(visited, factory.createNodeArray(sorted));
      }
      if (ts.isPropertySignature(visited) && visited.questionToken) {
        const { modifiers, name, questionToken, type } = visited;
        return factory.updatePropertySignature(
          visited,
          modifiers,
          name,
          questionToken,
          withoutUndefined(type),
        );
      }
      if (ts.isParameter(visited) && visited.questionToken) {
        const { modifiers, dotDotDotToken, name, questionToken, type, initializer } = visited;
        const cleaned = withoutUndefined(type);
        return factory.updateParameterDeclaration(
          visited,
          modifiers,
          dotDotDotToken,
          name,
          questionToken,
          cleaned,
          initializer,
        );
      }
      return visited;
    };
    return (top) => visit(top);
  };
  const result = ts.transform(node, [transformer]);
  const [transformed] = result.transformed;
  result.dispose();
  return transformed;
}

/**
 * The type as the checker prints it. `optional`: a `?:` member's, whose `undefined` goes without
 * saying. `unionPerLine`: a long union at the top (a type alias's) gets one member per line, so that
 * a member added or removed is a one-line diff.
 */
function typeText(type, { extraFlags = 0, optional = false, unionPerLine = false } = {}) {
  let node = checker.typeToTypeNode(type, undefined, NODE_FLAGS | extraFlags);
  if (!node) return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  if (optional) {
    // Wrapped in a property so that normalize() drops the `undefined` the way it does in literals.
    const property = ts.factory.createPropertySignature(
      undefined,
      'x',
      ts.factory.createToken(ts.SyntaxKind.QuestionToken),
      node,
    );
    node = normalize(property).type;
  }
  const text = print(node);
  if (!unionPerLine || text.length <= 80 || text.includes('\n')) return text;
  const top = normalize(node);
  if (!ts.isUnionTypeNode(top)) return text;
  return top.types.map((member) => `\n  | ${print(member)}`).join('');
}

/** `<T extends X>(a: T): R` — the signature without a name, for functions, methods, constructors. */
function signatureText(signature, kind = ts.SyntaxKind.CallSignature) {
  const node = checker.signatureToSignatureDeclaration(signature, kind, undefined, NODE_FLAGS);
  if (!node) return checker.signatureToString(signature, undefined, ts.TypeFormatFlags.NoTruncation);
  return print(node).replace(/^new\s*/, '');
}

const typeParametersText = (declaration) =>
  declaration?.typeParameters?.length
    ? `<${declaration.typeParameters.map((parameter) => tidy(parameter.getText())).join(', ')}>`
    : '';

const heritageText = (declaration) =>
  (declaration?.heritageClauses ?? []).map((clause) => ` ${tidy(clause.getText())}`).join('');

/** `name`, `'odd-name'`, or `[Symbol.hasInstance]` as declared (the checker's `__@hasInstance@867` is an id). */
function propertyName(symbol) {
  const declared = symbol.declarations
    ?.map((declaration) => ts.getNameOfDeclaration(declaration))
    .find(Boolean);
  if (declared && ts.isComputedPropertyName(declared)) return tidy(declared.getText());
  const name = symbol.name;
  if (name.startsWith('__@')) return `[${name.replace(/^__@/, '').replace(/@\d+$/, '')}]`;
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`;
}

/**
 * Declared in the packages' own dist/ (or synthesized by a mapped type): what the report lists of a
 * class or interface. Members inherited from lib.d.ts or node_modules (Error's `stack`, Node's
 * `captureStackTrace`) are left out: the heritage clause names their origin, and they would make
 * the report change with a @types/node upgrade.
 */
const packagesDir = join(root, 'packages') + sep;
const isOwn = (symbol) =>
  !symbol.declarations?.length ||
  symbol.declarations.some((declaration) => {
    const file = resolve(declaration.getSourceFile().fileName);
    return file.startsWith(packagesDir) && !file.includes(`${sep}node_modules${sep}`);
  });

function modifiersOf(symbol) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  return declaration ? ts.getCombinedModifierFlags(declaration) : 0;
}

const isHidden = (symbol) =>
  symbol.name.startsWith('__#') ||
  symbol.name.startsWith('#') ||
  (modifiersOf(symbol) & ts.ModifierFlags.Private) !== 0;

/** One line (or block) per member: properties with their types, methods per overload. */
function memberLines(type, prefix = '') {
  const lines = [];
  for (const property of checker.getPropertiesOfType(type)) {
    if (isHidden(property) || !isOwn(property)) continue;
    const flags = modifiersOf(property);
    let head = prefix;
    if (flags & ts.ModifierFlags.Protected) head += 'protected ';
    if (flags & ts.ModifierFlags.Readonly) head += 'readonly ';
    const name = propertyName(property);
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
    const propertyType = checker.getTypeOfSymbol(property);
    if (property.flags & ts.SymbolFlags.Method) {
      // An optional method's type is its signatures or undefined: the signatures are the former's.
      for (const signature of checker.getNonNullableType(propertyType).getCallSignatures()) {
        lines.push(`${head}${name}${optional}${signatureText(signature)}`);
      }
    } else if (property.flags & ts.SymbolFlags.Accessor && !(property.flags & ts.SymbolFlags.SetAccessor)) {
      lines.push(`${head}get ${name}(): ${typeText(propertyType)}`);
    } else {
      lines.push(`${head}${name}${optional}: ${typeText(propertyType, { optional: optional !== '' })}`);
    }
  }
  for (const signature of type.getCallSignatures()) lines.push(`${prefix}${signatureText(signature)}`);
  for (const signature of type.getConstructSignatures()) {
    lines.push(`${prefix}new ${signatureText(signature)}`);
  }
  for (const info of checker.getIndexInfosOfType(type)) {
    const readonly = info.isReadonly ? 'readonly ' : '';
    const key = typeText(info.keyType);
    lines.push(`${prefix}${readonly}[key: ${key}]: ${typeText(info.type)}`);
  }
  return lines;
}

const block = (head, lines) =>
  lines.length === 0 ? `${head} {}` : `${head} {\n${lines.map((line) => indent(`${line};`)).join('\n')}\n}`;
const indent = (text) => text.replace(/^/gm, '  ');

const deprecated = (symbol) =>
  (symbol.declarations ?? []).some((declaration) =>
    ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'deprecated'),
  );

/** Every meaning of one exported symbol: [kind, declaration text]. */
function describe(name, symbol) {
  const described = [];
  const flags = symbol.flags;
  const declarationOf = (kind) => symbol.declarations?.find((declaration) => declaration.kind === kind);

  if (flags & ts.SymbolFlags.Class) {
    const declaration = declarationOf(ts.SyntaxKind.ClassDeclaration);
    const abstract = declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Abstract;
    const head = `${abstract ? 'abstract ' : ''}class ${name}${typeParametersText(declaration)}${heritageText(declaration)}`;
    const staticSide = checker.getTypeOfSymbol(symbol);
    const lines = staticSide
      .getConstructSignatures()
      .map((signature) => signatureText(signature, ts.SyntaxKind.Constructor));
    // The static side: its construct signatures are the constructors above, `prototype` is implied.
    const statics = memberLines(staticSide, 'static ').filter(
      (line) => !line.startsWith('static prototype:') && !line.startsWith('static new '),
    );
    lines.push(...statics, ...memberLines(checker.getDeclaredTypeOfSymbol(symbol)));
    described.push(['class', block(head, [...new Set(lines)])]);
  } else if (flags & ts.SymbolFlags.Interface) {
    const declaration = declarationOf(ts.SyntaxKind.InterfaceDeclaration);
    const head = `interface ${name}${typeParametersText(declaration)}${heritageText(declaration)}`;
    described.push(['interface', block(head, memberLines(checker.getDeclaredTypeOfSymbol(symbol)))]);
  }
  if (flags & ts.SymbolFlags.TypeAlias) {
    const declaration = declarationOf(ts.SyntaxKind.TypeAliasDeclaration);
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const text = typeText(type, { extraFlags: ts.NodeBuilderFlags.InTypeAlias, unionPerLine: true });
    described.push([
      'type',
      `type ${name}${typeParametersText(declaration)} =${text.startsWith('\n') ? '' : ' '}${text}`,
    ]);
  }
  if (flags & ts.SymbolFlags.Enum) {
    const members = [...(symbol.exports?.values() ?? [])].map((member) => {
      const declaration = member.valueDeclaration;
      const value = declaration && checker.getConstantValue(declaration);
      return `${propertyName(member)}${value === undefined ? '' : ` = ${JSON.stringify(value)}`}`;
    });
    described.push(['enum', block(`enum ${name}`, members)]);
  }
  if (flags & ts.SymbolFlags.Function) {
    const signatures = checker.getTypeOfSymbol(symbol).getCallSignatures();
    const text = signatures.map((signature) => `function ${name}${signatureText(signature)}`).join('\n');
    described.push(['function', text]);
  }
  if (flags & ts.SymbolFlags.Variable) {
    const declaration = symbol.valueDeclaration;
    const list = declaration?.parent;
    const keyword =
      list && ts.isVariableDeclarationList(list) && !(list.flags & ts.NodeFlags.Const) ? 'let' : 'const';
    described.push([keyword, `${keyword} ${name}: ${typeText(checker.getTypeOfSymbol(symbol))}`]);
  }
  if (flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) {
    const members = checker
      .getExportsOfModule(symbol)
      .map((member) => member.name)
      .sort(compare);
    described.push([
      'namespace',
      block(
        `namespace ${name}`,
        members.map((member) => `${member} (see ${name}.${member})`),
      ),
    ]);
  }
  if (described.length === 0) described.push(['unknown', `${name} (symbol flags ${flags})`]);
  return described;
}

/** [name, symbol] of every export, namespaces flattened as `ns.member`. */
function exportsOf(moduleSymbol, prefix = '') {
  const all = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const name = `${prefix}${exported.name}`;
    all.push([name, symbol]);
    if (symbol.flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) {
      all.push(...exportsOf(symbol, `${name}.`));
    }
  }
  return all;
}

function report(entry) {
  const sourceFile = program.getSourceFile(entry.types);
  const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
  if (!moduleSymbol) throw new Error(`${relative(root, entry.types)} is not a module`);
  const exported = exportsOf(moduleSymbol).sort(([a], [b]) => compare(a, b));
  const out = [
    `# API report: \`${entry.name}\``,
    '',
    `<!-- Generated by scripts/api-report.mjs from ${relative(join(root, 'packages', entry.pkg), entry.types)}. -->`,
    '<!-- Do not edit: run pnpm build && pnpm api:update, and commit the change with the API change. -->',
    '',
    `${exported.length} exports.`,
  ];
  for (const [name, symbol] of exported) {
    for (const [kind, text] of describe(name.split('.').pop(), symbol)) {
      out.push(
        '',
        `## \`${name}\` (${kind}${deprecated(symbol) ? ', deprecated' : ''})`,
        '',
        '```ts',
        text,
        '```',
      );
    }
  }
  return `${out.join('\n')}\n`;
}

// ---- diff ------------------------------------------------------------------------------------

/** A unified diff (3 lines of context) of two texts, from their longest common subsequence. */
function unifiedDiff(before, after, label) {
  const linesOf = (text) => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const a = linesOf(before);
  const b = linesOf(after);
  // The common head and tail need no table (a report changes in a few places).
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail += 1;
  }
  const endA = a.length - tail;
  const endB = b.length - tail;
  const lcs = Array.from({ length: endA - head + 1 }, () => new Uint32Array(endB - head + 1));
  for (let i = endA - 1; i >= head; i--) {
    for (let j = endB - 1; j >= head; j--) {
      const [x, y] = [i - head, j - head];
      lcs[x][y] = a[i] === b[j] ? lcs[x + 1][y + 1] + 1 : Math.max(lcs[x + 1][y], lcs[x][y + 1]);
    }
  }
  // Each op: its mark, its line, and how many lines of a and of b come before it.
  const ops = [];
  for (let k = 0; k < head; k++) ops.push([' ', a[k], k, k]);
  let i = head;
  let j = head;
  while (i < endA || j < endB) {
    const [x, y] = [i - head, j - head];
    if (i < endA && j < endB && a[i] === b[j]) ops.push([' ', a[i++], i - 1, j++]);
    else if (i < endA && (j === endB || lcs[x + 1][y] >= lcs[x][y + 1])) ops.push(['-', a[i++], i - 1, j]);
    else ops.push(['+', b[j++], i, j - 1]);
  }
  for (let k = 0; k < tail; k++) ops.push([' ', a[endA + k], endA + k, endB + k]);
  const CONTEXT = 3;
  const changes = ops.flatMap((op, index) => (op[0] === ' ' ? [] : [index]));
  const out = [`--- ${label} (committed)`, `+++ ${label} (generated)`];
  let c = 0;
  while (c < changes.length) {
    const first = changes[c];
    let last = first;
    while (c + 1 < changes.length && changes[c + 1] - last <= 2 * CONTEXT) last = changes[++c];
    c += 1;
    const hunk = ops.slice(Math.max(0, first - CONTEXT), Math.min(ops.length, last + CONTEXT + 1));
    const countA = hunk.filter((op) => op[0] !== '+').length;
    const countB = hunk.filter((op) => op[0] !== '-').length;
    const startA = hunk[0][2] + (countA > 0 ? 1 : 0);
    const startB = hunk[0][3] + (countB > 0 ? 1 : 0);
    out.push(`@@ -${startA},${countA} +${startB},${countB} @@`);
    for (const [mark, line] of hunk) out.push(`${mark}${line}`);
  }
  return out.join('\n');
}

// ---- main ------------------------------------------------------------------------------------

const expected = new Map(entries.map((entry) => [entry.report, report(entry)]));
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

if (mode === '--update') {
  for (const pkg of PACKAGES) {
    const dir = join(root, 'packages', pkg, 'api');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      if (file.endsWith('.api.md') && !expected.has(join(dir, file))) rmSync(join(dir, file));
    }
  }
  for (const [file, text] of expected) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  console.log(`api:update: wrote ${expected.size} reports (${seconds()}s)`);
  process.exit(0);
}

let failed = 0;
for (const [file, text] of expected) {
  const label = relative(root, file);
  if (!existsSync(file)) {
    console.error(`\n${label} is missing.`);
    failed += 1;
    continue;
  }
  const committed = readFileSync(file, 'utf8');
  if (committed !== text) {
    console.error(`\n${label} differs from the built API:\n${unifiedDiff(committed, text, label)}`);
    failed += 1;
  }
}
for (const pkg of PACKAGES) {
  const dir = join(root, 'packages', pkg, 'api');
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.api.md') && !expected.has(join(dir, file))) {
      console.error(`\n${relative(root, join(dir, file))} reports an entry point that no longer exists.`);
      failed += 1;
    }
  }
}
if (failed > 0) {
  console.error(`\ncheck:api: ${failed} of the API reports are out of date: ${HINT}.`);
  process.exit(1);
}
console.log(`check:api: ${expected.size} API reports match the built declarations (${seconds()}s)`);
