// Issue 35 (docs/decisions/0055): the server's PO catalogs (src/locales/{locale}/server.po, explicit
// ids such as `email.verify.subject`, ICU MessageFormat) compiled into modules, in the esbuild bundle
// (esbuild-options.mjs) and in vitest (the server projects in vitest.config.ts) alike. Each language's
// module holds every English id: a message without a translation falls back to English. An ICU
// syntax error fails the build.
import fs from 'node:fs';
import path from 'node:path';
import { parsePoFile } from '@lingui/format-po';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';

const SOURCE_LOCALE = 'en';

/** id → text of a PO file; an empty msgstr (not yet translated) is left out. */
function readPo(file) {
  const po = parsePoFile(fs.readFileSync(file, 'utf8'));
  const texts = {};
  for (const item of po.items) {
    const text = item.msgstr?.[0] ?? '';
    if (item.msgid && !item.obsolete && text !== '') texts[item.msgid] = text;
  }
  return texts;
}

/** The module of one catalog file: `export const messages = { id: compiled }`, English where untranslated. */
export function compilePoCatalog(file) {
  const locale = path.basename(path.dirname(file));
  const englishFile = path.join(path.dirname(path.dirname(file)), SOURCE_LOCALE, path.basename(file));
  const english = readPo(englishFile);
  const own = locale === SOURCE_LOCALE ? english : readPo(file);
  const messages = {};
  for (const [id, source] of Object.entries(english)) {
    const text = own[id] ?? source;
    try {
      messages[id] = compileMessageOrThrow(text);
    } catch (error) {
      throw new Error(`${path.relative(process.cwd(), file)}: ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { code: `export const messages = ${JSON.stringify(messages)};\n`, watchFiles: [file, englishFile] };
}

/** esbuild: `import { messages } from '…/server.po'`. */
export const poEsbuildPlugin = {
  name: 'po-catalogs',
  setup(b) {
    b.onLoad({ filter: /\.po$/ }, (args) => {
      const { code, watchFiles } = compilePoCatalog(args.path);
      return { contents: code, loader: 'js', watchFiles };
    });
  },
};

/** Vite (vitest's server projects): the same modules. */
export function poVitePlugin() {
  return {
    name: 'po-catalogs',
    enforce: 'pre',
    load(id) {
      const file = id.split('?')[0];
      if (!file.endsWith('.po')) return null;
      const { code, watchFiles } = compilePoCatalog(file);
      for (const watched of watchFiles) this.addWatchFile?.(watched);
      return { code, map: null };
    },
  };
}
