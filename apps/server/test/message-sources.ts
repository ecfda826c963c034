// Issue 35: every text the server source hands a person as an answer's `message`, read from the
// source with the TypeScript compiler (message-codes.test.ts holds each one to the registry of
// packages/shared/src/messages.ts). A text is found where it is passed to an HttpError (badRequest,
// notFound, … or `new HttpError(status, text)`) or written as the `message` of an answer body (an
// object literal that a route returns or sends). Constants, `as const` tables, ternaries, function
// results and template literals are followed; what cannot be followed is a HOLE (`{}`) in the text.
import path from 'node:path';
import ts from 'typescript';

export const HOLE = '\u0000';

export interface MessageSource {
  /** The text, with HOLE where a value is filled in at run time. */
  text: string;
  /** file:line of the place that passes it. */
  at: string;
}

const ERROR_HELPERS = new Set(['badRequest', 'unauthorized', 'forbidden', 'notFound', 'conflict', 'tooManyRequests']);
/** The defaults of the helpers called without a text (lib/http-errors.ts). */
const HELPER_DEFAULTS: Record<string, string> = { unauthorized: 'Not authenticated', forbidden: 'Forbidden', notFound: 'Not found' };
const MAX_VARIANTS = 64;

/** The server's source files, tests left out. */
export function serverProgram(root: string): ts.Program {
  const configPath = path.join(root, 'apps/server/tsconfig.json');
  const read = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath));
  const files = parsed.fileNames.filter((file) => file.includes('/apps/server/src/') && !/\.test\.ts$/.test(file));
  indexedProgram = ts.createProgram(files, { ...parsed.options, noEmit: true });
  return indexedProgram;
}

function cross(parts: string[][]): string[] {
  let out = [''];
  for (const options of parts) {
    const next: string[] = [];
    for (const head of out) for (const option of options) next.push(head + option);
    out = next.slice(0, MAX_VARIANTS);
  }
  return out;
}

/**
 * The texts an expression can be, HOLE for what is only known at run time. `seen` guards against
 * following a declaration into itself.
 */
export function textsOf(expr: ts.Expression, checker: ts.TypeChecker, seen = new Set<ts.Node>()): string[] {
  if (seen.has(expr)) return [HOLE];
  seen = new Set(seen).add(expr);
  const follow = (node: ts.Expression) => textsOf(node, checker, seen);
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isNonNullExpression(expr))
    return follow(expr.expression);
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr.text];
  if (ts.isNumericLiteral(expr)) return [String(Number(expr.text))];
  if (ts.isTemplateExpression(expr)) {
    const parts: string[][] = [[expr.head.text]];
    for (const span of expr.templateSpans) {
      parts.push(follow(span.expression));
      parts.push([span.literal.text]);
    }
    return cross(parts);
  }
  if (ts.isConditionalExpression(expr)) return [...follow(expr.whenTrue), ...follow(expr.whenFalse)];
  if (ts.isBinaryExpression(expr)) {
    if (expr.operatorToken.kind === ts.SyntaxKind.PlusToken) return cross([follow(expr.left), follow(expr.right)]);
    if (expr.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || expr.operatorToken.kind === ts.SyntaxKind.BarBarToken)
      return [...follow(expr.left), ...follow(expr.right)];
    return [HOLE];
  }
  // A literal type (a const, an `as const` table's entry, a union of them) says every value.
  const type = checker.getTypeAtLocation(expr);
  const literals = (type.isUnion() ? type.types : [type]).map((t) =>
    t.isStringLiteral() ? t.value : t.isNumberLiteral() ? String(t.value) : undefined,
  );
  if (literals.every((value) => value !== undefined)) return literals;
  if (ts.isIdentifier(expr) && expr.text === 'undefined') return [];
  if (ts.isIdentifier(expr)) {
    const declaration = declarationOf(expr, checker);
    // A parameter: its default, and what every call of its function passes there.
    if (declaration && ts.isParameter(declaration)) {
      const fn = declaration.parent;
      const index = fn.parameters.indexOf(declaration);
      const name = functionName(fn);
      // Calls by the same name with more arguments than it takes are another function's.
      const calls = (name ? (callIndex(checker).get(name) ?? []) : []).filter(
        (call) => (call.arguments?.length ?? 0) <= fn.parameters.length,
      );
      const args = calls.flatMap((call) => (call.arguments?.[index] ? [call.arguments[index]] : []));
      const passed = [...(declaration.initializer ? [declaration.initializer] : []), ...args];
      return passed.length > 0 ? passed.flatMap(follow) : [HOLE];
    }
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) return follow(declaration.initializer);
    // `const { one } = TABLE[kind]`: the property of the table.
    if (declaration && ts.isBindingElement(declaration) && ts.isObjectBindingPattern(declaration.parent)) {
      const holder = declaration.parent.parent;
      const key = declaration.propertyName ?? declaration.name;
      if (ts.isVariableDeclaration(holder) && holder.initializer && ts.isIdentifier(key)) {
        const table = objectLiteralOf(holder.initializer, checker, seen);
        const values = table?.properties.flatMap((p) =>
          ts.isPropertyAssignment(p) && propertyName(p) === key.text ? [p.initializer] : [],
        );
        if (values && values.length > 0) return values.flatMap(follow);
      }
    }
    return [HOLE];
  }
  if (ts.isPropertyAccessExpression(expr) || ts.isElementAccessExpression(expr)) {
    // A property of a table written as an object literal: the property's value, or every value of the table.
    const name = ts.isPropertyAccessExpression(expr)
      ? expr.name.text
      : ts.isStringLiteral(expr.argumentExpression)
        ? expr.argumentExpression.text
        : undefined;
    const table = objectLiteralOf(expr.expression, checker, seen);
    if (table) {
      const values = table.properties.flatMap((property) =>
        ts.isPropertyAssignment(property) && (name === undefined || propertyName(property) === name) ? [property.initializer] : [],
      );
      if (values.length > 0) return values.flatMap(follow);
    }
    return [HOLE];
  }
  if (ts.isCallExpression(expr)) {
    const callee = expr.expression;
    // `text.toLowerCase()` of a known text.
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'toLowerCase' && expr.arguments.length === 0)
      return follow(callee.expression).map((text) => text.toLowerCase());
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'trim' && expr.arguments.length === 0)
      return follow(callee.expression).map((text) => text.trim());
    // `text.replace(/_/g, ' ')`, `text.replaceAll('_', ' ')` of a known text.
    const [from, to] = expr.arguments;
    if (
      ts.isPropertyAccessExpression(callee) &&
      (callee.name.text === 'replace' || callee.name.text === 'replaceAll') &&
      from &&
      to &&
      ts.isStringLiteral(to)
    ) {
      const pattern = ts.isStringLiteral(from)
        ? from.text
        : ts.isRegularExpressionLiteral(from)
          ? new RegExp(from.text.slice(1, from.text.lastIndexOf('/')), from.text.slice(from.text.lastIndexOf('/') + 1))
          : undefined;
      if (pattern !== undefined)
        return follow(callee.expression).map((text) =>
          text === HOLE ? text : callee.name.text === 'replaceAll' ? text.replaceAll(pattern, to.text) : text.replace(pattern, to.text),
        );
    }
    const fn = functionOf(callee, checker);
    if (fn) return returnsOf(fn).flatMap(follow);
    return [HOLE];
  }
  return [HOLE];
}

type Named = ts.SignatureDeclaration;

/** The name a function is called by: its own, its variable's or its property's. */
function functionName(fn: Named): string | undefined {
  if (ts.isConstructorDeclaration(fn)) return fn.parent.name?.text;
  if (fn.name && ts.isIdentifier(fn.name)) return fn.name.text;
  const parent = fn.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return undefined;
}

type Call = ts.CallExpression | ts.NewExpression;
const callIndexes = new WeakMap<ts.TypeChecker, Map<string, Call[]>>();
let indexedProgram: ts.Program | undefined;

/** Every call in the server's source, by the name it calls. */
function callIndex(checker: ts.TypeChecker): Map<string, Call[]> {
  let index = callIndexes.get(checker);
  if (index) return index;
  index = new Map();
  for (const file of indexedProgram?.getSourceFiles() ?? []) {
    if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const name = calleeName(node.expression);
        if (name) index.set(name, [...(index.get(name) ?? []), node]);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  callIndexes.set(checker, index);
  return index;
}

function propertyName(property: ts.PropertyAssignment): string | undefined {
  const name = property.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;
}

function declarationOf(identifier: ts.Node, checker: ts.TypeChecker): ts.Declaration | undefined {
  let symbol = checker.getSymbolAtLocation(identifier);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.valueDeclaration ?? symbol?.declarations?.[0];
}

/** The object literal an expression names: a table written as a const, whatever its `as const`, or an element of one. */
function objectLiteralOf(expr: ts.Expression, checker: ts.TypeChecker, seen: Set<ts.Node>): ts.ObjectLiteralExpression | undefined {
  let node: ts.Expression = expr;
  for (let i = 0; i < 8; i++) {
    while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
    if (ts.isObjectLiteralExpression(node)) return node;
    if (ts.isIdentifier(node)) {
      const declaration = declarationOf(node, checker);
      if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer || seen.has(declaration)) return undefined;
      node = declaration.initializer;
      continue;
    }
    if (ts.isElementAccessExpression(node) || ts.isPropertyAccessExpression(node)) {
      // TABLE[kind].many: the union of the inner tables' properties is taken by merging them.
      const outer = objectLiteralOf(node.expression, checker, seen);
      if (!outer) return undefined;
      const inner = outer.properties.flatMap((p) =>
        ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer) ? p.initializer.properties : [],
      );
      return ts.factory.createObjectLiteralExpression(inner);
    }
    return undefined;
  }
  return undefined;
}

type FunctionNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration;

function functionOf(callee: ts.Expression, checker: ts.TypeChecker): FunctionNode | undefined {
  const declaration = declarationOf(ts.isPropertyAccessExpression(callee) ? callee.name : callee, checker);
  if (!declaration) return undefined;
  if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) return declaration;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
    const init = declaration.initializer;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  if (ts.isPropertyAssignment(declaration)) {
    const init = declaration.initializer;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return undefined;
}

function returnsOf(fn: FunctionNode): ts.Expression[] {
  if (!fn.body) return [];
  if (!ts.isBlock(fn.body)) return [fn.body];
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && node !== fn) return;
    if (ts.isReturnStatement(node) && node.expression) out.push(node.expression);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return out;
}

/** The name an expression calls: `badRequest(…)` → "badRequest". */
function calleeName(expr: ts.LeftHandSideExpression): string | undefined {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return undefined;
}

function extendsHttpError(node: ts.Node): boolean {
  let at: ts.Node | undefined = node;
  while (at && !ts.isClassDeclaration(at)) at = at.parent;
  return !!at?.heritageClauses?.some((clause) => clause.types.some((type) => type.expression.getText() === 'HttpError'));
}

/** Is this object literal an answer body: returned by a function, or sent with `reply.send`/`.send`? */
function isAnswerBody(node: ts.ObjectLiteralExpression): boolean {
  let parent: ts.Node = node.parent;
  while (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) parent = parent.parent;
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) return true;
  if (ts.isCallExpression(parent) && calleeName(parent.expression) === 'send' && parent.arguments[0] === node) return true;
  return false;
}

/** Every text the server passes to a person as a message. `skip` leaves out files (by path relative to apps/server/src). */
export function messageSources(root: string, skip: (file: string) => boolean = () => false): MessageSource[] {
  const program = serverProgram(root);
  const checker = program.getTypeChecker();
  const out: MessageSource[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.includes('/apps/server/src/') || file.isDeclarationFile) continue;
    const relative = file.fileName.slice(file.fileName.indexOf('/apps/server/src/') + '/apps/server/src/'.length);
    if (skip(relative)) continue;
    const add = (expr: ts.Expression) => {
      const { line } = file.getLineAndCharacterOfPosition(expr.getStart());
      for (const text of textsOf(expr, checker)) out.push({ text, at: `${relative}:${line + 1}` });
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const name = calleeName(node.expression);
        const args = node.arguments ?? ts.factory.createNodeArray();
        if (name && ERROR_HELPERS.has(name) && relative !== 'lib/http-errors.ts') {
          const [first] = args;
          if (first) add(first);
          else if (HELPER_DEFAULTS[name])
            out.push({ text: HELPER_DEFAULTS[name], at: `${relative}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}` });
        }
        if (name === 'HttpError' && ts.isNewExpression(node) && args[1]) add(args[1]);
        // `super(status, text, …)` in a class of its own that extends HttpError.
        if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword && args[1] && extendsHttpError(node))
          add(args[1]);
      }
      if (ts.isObjectLiteralExpression(node) && isAnswerBody(node)) {
        for (const property of node.properties) {
          if (ts.isPropertyAssignment(property) && propertyName(property) === 'message') add(property.initializer);
          if (ts.isShorthandPropertyAssignment(property) && property.name.text === 'message') {
            const declaration = checker.getShorthandAssignmentValueSymbol(property)?.valueDeclaration;
            add(declaration && ts.isVariableDeclaration(declaration) && declaration.initializer ? declaration.initializer : property.name);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return out;
}

const ZOD_CHECKS = new Set([
  'min',
  'max',
  'length',
  'regex',
  'refine',
  'int',
  'positive',
  'nonnegative',
  'negative',
  'nonpositive',
  'email',
  'url',
  'uuid',
  'nonempty',
  'gt',
  'gte',
  'lt',
  'lte',
  'startsWith',
  'endsWith',
  'includes',
  'multipleOf',
  'finite',
  'check',
  'datetime',
  'date',
]);

/**
 * Every message the zod schemas of packages/shared write for people: a check's text (`.max(200, 'text')`,
 * `.refine(fn, 'text')`) and any `message`/`error` text of an options object (`{ message: 'text' }`,
 * `ctx.addIssue({ message })`). They reach people as 400s and under form fields.
 */
export function sharedSchemaMessages(root: string): MessageSource[] {
  const program = serverProgram(root);
  const checker = program.getTypeChecker();
  const out: MessageSource[] = [];
  const stringy = (expr: ts.Expression) => (checker.getTypeAtLocation(expr).flags & ts.TypeFlags.StringLike) !== 0;
  for (const file of program.getSourceFiles()) {
    const at = file.fileName.indexOf('/packages/shared/src/');
    if (at < 0 || file.isDeclarationFile || /\.test\.ts$/.test(file.fileName)) continue;
    const relative = file.fileName.slice(at + 1);
    const add = (expr: ts.Expression) => {
      const { line } = file.getLineAndCharacterOfPosition(expr.getStart());
      for (const text of textsOf(expr, checker)) out.push({ text, at: `${relative}:${line + 1}` });
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const name = calleeName(node.expression);
        const last = node.arguments[node.arguments.length - 1];
        if (
          name &&
          ZOD_CHECKS.has(name) &&
          ts.isPropertyAccessExpression(node.expression) &&
          last &&
          node.arguments.length >= 1 &&
          stringy(last)
        )
          add(last);
        for (const arg of node.arguments) {
          if (!ts.isObjectLiteralExpression(arg)) continue;
          for (const property of arg.properties) {
            const key = ts.isPropertyAssignment(property) ? propertyName(property) : undefined;
            if (ts.isPropertyAssignment(property) && (key === 'message' || key === 'error') && stringy(property.initializer))
              add(property.initializer);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return out;
}
