#!/usr/bin/env node
// Finds dead exports across the workspaces (issue 31: dead code goes, and stays gone): exports
// that no other file imports and their own file does not use either. Run by `npm run lint`; exits
// 1 when it finds one.
//
// Syntactic and quick (no type check): every file is parsed with the TypeScript compiler, every
// import, re-export and dynamic import is resolved with the repository's module settings, and each
// name a file exports is looked for among the names other files take from it. `import * as`, a
// dynamic import whose names cannot be read, and `export *` count as using every export.
// `node scripts/unused-exports.mjs --local` also lists the exports used only in their own file
// (reported, not refused: many are a public signature's types).
import { readFileSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'dist-ssr', '.tmp', 'screenshots', 'data', 'results', '.git']);
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

/**
 * Files whose exports are taken by something other than an import: a tool reading its config,
 * a build step naming it by path, or Node running it.
 */
const ENTRY_POINTS = [
  // Read by the tools themselves (default exports).
  /(^|\/)(vite|vitest|eslint)\.config\.(ts|js|mjs)$/,
  /^apps\/web\/vite\.emergency\.config\.ts$/,
  /^apps\/web\/pwa\.config\.ts$/,
  /(^|\/)lingui\.config\.ts$/,
  // The server's PO catalog compiler: loaded by esbuild-options.mjs and vitest.config.ts.
  /^apps\/server\/po-catalogs\.mjs$/,
  // The emergency page's server-side renderer: built on its own and loaded by path (features/emergency/emergency-page.ts).
  /^apps\/web\/src\/emergency\/entry-server\.tsx$/,
  // Vitest's global set-up and set-up files (vitest.config.ts), and the manual mocks `vi.mock` swaps in.
  /^apps\/server\/test\/global-build\.ts$/,
  /(^|\/)test\/setup\.ts$/,
  /\/__mocks__\//,
];

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') && entry.name !== '.') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(full, out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out;
}

const rel = (file) => path.relative(root, file).split(path.sep).join('/');
const topLevel = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isFile() && SOURCE.test(e.name))
  .map((e) => path.join(root, e.name));
const files = ['packages', 'apps', 'e2e', 'bench', 'scripts'].flatMap((d) => walk(path.join(root, d))).concat(topLevel);
const known = new Set(files);

const base = ts.getParsedCommandLineOfConfigFile(
  path.join(root, 'tsconfig.base.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
const options = { ...base.options, allowJs: true };
const cache = ts.createModuleResolutionCache(root, (x) => x, options);

/** The repository file `specifier` names from `from`, or undefined for a package or a file outside. */
function resolve(specifier, from) {
  const hit = ts.resolveModuleName(specifier, from, options, ts.sys, cache).resolvedModule;
  if (!hit) return undefined;
  let file = hit.resolvedFileName;
  try {
    file = realpathSync(file);
  } catch {
    return undefined;
  }
  return known.has(file) ? file : undefined;
}

/** What each file exports (name → line), and what each file takes from others (file → names, or '*'). */
const exportsOf = new Map();
const used = new Map();
const localUses = new Map();
const use = (file, name) => {
  if (!file) return;
  if (!used.has(file)) used.set(file, new Set());
  used.get(file).add(name);
};

const hasExport = (node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (node) => (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

function bindingNames(name, out = []) {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name, out);
  return out;
}

const objectNames = (pattern) => pattern.elements.map((e) => (e.propertyName ?? e.name).getText());
const skipParens = (node) => {
  let n = node.parent;
  while (n && ts.isParenthesizedExpression(n)) n = n.parent;
  return n;
};

/** The names a `.then` callback's parameter reads: `({ a }) =>`, or `(m) => m.a`; '*' when unknown. */
function paramNames(param, body) {
  if (!param) return [];
  if (ts.isObjectBindingPattern(param.name)) return objectNames(param.name);
  if (ts.isIdentifier(param.name)) return memberNames(param.name.text, body, param.name);
  return ['*'];
}

/** The members read from the identifier `name` within `scope` (`name.a`, `typeof name.a`); '*' when it is used whole. */
function memberNames(name, scope, declaration) {
  const names = [];
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name)
      return void names.push(node.name.text);
    if (ts.isQualifiedName(node) && ts.isIdentifier(node.left) && node.left.text === name) return void names.push(node.right.text);
    if (ts.isIdentifier(node) && node.text === name && node !== declaration) names.push('*');
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return names;
}

/** The names read from a dynamic import: `(await import(x)).a`, `const { a } = await import(x)`, `.then(({ a }) =>`, `Promise.all([…]).then(([{ a }]) =>`. */
function dynamicNames(call) {
  const outer = skipParens(call);
  if (outer && ts.isAwaitExpression(outer)) {
    const user = skipParens(outer);
    if (user && ts.isPropertyAccessExpression(user)) return [user.name.text];
    if (user && ts.isVariableDeclaration(user) && ts.isObjectBindingPattern(user.name)) return objectNames(user.name);
  }
  const then = (target) => {
    const access = skipParens(target);
    if (!access || !ts.isPropertyAccessExpression(access) || access.name.text !== 'then' || !ts.isCallExpression(access.parent))
      return undefined;
    const callback = access.parent.arguments[0];
    return callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) ? callback : undefined;
  };
  const direct = then(call);
  if (direct) return paramNames(direct.parameters[0], direct.body);
  // Promise.all([import(a), import(b)]).then(([{ x }, { y }]) => …)
  const list = call.parent;
  if (list && ts.isArrayLiteralExpression(list) && ts.isCallExpression(list.parent) && list.parent.expression.getText() === 'Promise.all') {
    const callback = then(list.parent);
    const pattern = callback?.parameters[0]?.name;
    if (pattern && ts.isArrayBindingPattern(pattern)) {
      const element = pattern.elements[list.elements.indexOf(call)];
      if (element && !ts.isOmittedExpression(element) && ts.isObjectBindingPattern(element.name)) return objectNames(element.name);
    }
  }
  return ['*'];
}

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const mine = new Map();
  exportsOf.set(file, mine);
  // How often each identifier appears in the file: once means only its own declaration.
  const seen = new Map();
  const count = (node) => {
    if (ts.isIdentifier(node)) seen.set(node.text, (seen.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, count);
  };
  count(source);
  localUses.set(file, seen);
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const target = resolve(statement.moduleSpecifier.text, file);
      const clause = statement.importClause;
      if (!clause) continue;
      if (clause.name) use(target, 'default');
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings))
        for (const name of memberNames(bindings.name.text, source, bindings.name)) use(target, name);
      else if (bindings) for (const spec of bindings.elements) use(target, (spec.propertyName ?? spec.name).text);
    } else if (ts.isExportDeclaration(statement)) {
      const target =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? resolve(statement.moduleSpecifier.text, file)
          : undefined;
      if (!statement.exportClause) {
        use(target, '*');
      } else if (ts.isNamespaceExport(statement.exportClause)) {
        use(target, '*');
        mine.set(statement.exportClause.name.text, line(statement));
      } else {
        for (const spec of statement.exportClause.elements) {
          if (statement.moduleSpecifier) use(target, (spec.propertyName ?? spec.name).text);
          mine.set(spec.name.text, line(spec));
        }
      }
    } else if (ts.isExportAssignment(statement)) {
      mine.set('default', line(statement));
    } else if (hasExport(statement)) {
      if (isDefault(statement)) mine.set('default', line(statement));
      else if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) for (const name of bindingNames(d.name)) mine.set(name, line(d));
      } else if (statement.name) mine.set(statement.name.text, line(statement));
    }
  }

  // Dynamic imports anywhere in the file.
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) {
        const target = resolve(arg.text, file);
        for (const name of dynamicNames(node)) use(target, name);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const unused = [];
const localOnly = [];
for (const [file, names] of exportsOf) {
  const r = rel(file);
  if (ENTRY_POINTS.some((p) => p.test(r))) continue;
  const taken = used.get(file) ?? new Set();
  if (taken.has('*')) continue;
  for (const [name, line] of names) {
    if (taken.has(name)) continue;
    const local = (localUses.get(file).get(name) ?? 0) > 1;
    (local ? localOnly : unused).push(`${r}:${line}  ${name}`);
  }
}

if (process.argv.includes('--local')) {
  console.log(`${localOnly.length} export(s) used only in their own file:`);
  for (const u of localOnly.sort()) console.log(`  ${u}`);
}
if (unused.length > 0) {
  console.error(`${unused.length} export(s) that nothing uses, here or elsewhere (remove them):`);
  for (const u of unused.sort()) console.error(`  ${u}`);
  process.exit(1);
}
console.log(`unused exports: none (${files.length} files)`);
