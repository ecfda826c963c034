import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/*
 * `kinchart/no-feature-cycle`: the features of one side (apps/<side>/src/features/<feature>) form no
 * cycle. import-x/no-cycle sees cycles between modules; two features can still depend on each other
 * through different modules (auth's reauth prompt read settings' MFA status while settings read
 * auth's session), and that is the cycle DESIGN §5 rules out: a feature imports another only if that
 * one, through any chain, never comes back to it.
 *
 * Every import counts — static, `export … from`, dynamic `import()`, type-only, and those of tests
 * and `testing/` folders — because each says one feature knows another. The graph is read from the
 * files on disk (TypeScript's import scanner), refreshed by modification time, so an editor's
 * long-lived ESLint sees edits to other files too.
 */

const SOURCE = /\.tsx?$/;
const graphs = new Map(); // features folder → { files: Map<file, { mtime, imports: string[] }> }

/** The features folder and the feature a file belongs to, or null outside any features folder. */
function locate(file) {
  const parts = file.split(path.sep);
  for (let i = parts.length - 3; i > 0; i -= 1) {
    if (parts[i] === 'features' && parts[i - 1] === 'src') return { root: parts.slice(0, i + 1).join(path.sep), feature: parts[i + 1] };
  }
  return null;
}

function featureIn(root, file) {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

/** feature → (imported feature → one import that shows it: "file imports specifier"), fresh from disk. */
function featureEdges(root) {
  let graph = graphs.get(root);
  if (!graph) graphs.set(root, (graph = { files: new Map() }));
  const seen = new Set();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !SOURCE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    seen.add(file);
    const mtime = fs.statSync(file).mtimeMs;
    if (graph.files.get(file)?.mtime === mtime) continue;
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    graph.files.set(file, { mtime, imports: importedFiles.map((imported) => imported.fileName).filter((name) => name.startsWith('.')) });
  }
  for (const file of graph.files.keys()) if (!seen.has(file)) graph.files.delete(file);

  const edges = new Map();
  for (const [file, { imports }] of graph.files) {
    const from = featureIn(root, file);
    for (const specifier of imports) {
      const to = featureIn(root, path.resolve(path.dirname(file), specifier));
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${path.relative(root, file)} imports ${specifier}`);
    }
  }
  return edges;
}

/** The shortest chain of features from `start` back to `goal` (both included), or null. */
function chain(edges, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const feature = queue.shift();
    for (const next of edges.get(feature)?.keys() ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, feature);
      if (next === goal) {
        const found = [goal];
        for (let step = feature; step !== null; step = previous.get(step)) found.unshift(step);
        return found;
      }
      queue.push(next);
    }
  }
  return null;
}

const noFeatureCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Features import each other without a cycle (tests, testing/ folders and dynamic imports included).' },
    schema: [],
    messages: {
      cycle:
        'Feature cycle: {{cycle}} ({{witnesses}}). Move the shared piece to the feature that owns it, or below features (lib, components).',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const here = locate(file);
    if (!here) return {};

    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = featureIn(here.root, path.resolve(path.dirname(file), source.value));
      if (!target || target === here.feature) return;
      const edges = featureEdges(here.root);
      const back = chain(edges, target, here.feature);
      if (!back) return;
      const witnesses = back.slice(1).map((feature, index) => edges.get(back[index]).get(feature));
      context.report({
        node: source,
        messageId: 'cycle',
        data: { cycle: [here.feature, ...back].join(' → '), witnesses: witnesses.join('; ') },
      });
    };

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export const kinchart = { meta: { name: 'kinchart' }, rules: { 'no-feature-cycle': noFeatureCycle } };
