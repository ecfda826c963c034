// Issue 35: translations made beside the code, area by area, folded into the PO catalogs.
//
//   node scripts/i18n-areas.mjs skeleton <area> <path-prefix>...   (after `npx lingui extract`)
//     writes src/locales/_areas/<area>.json: every message of the app catalog used under one of
//     the prefixes (relative to src/, e.g. features/settings) that has no translation yet in
//     some language, with the English text and each language's current translation ('' if none).
//   node scripts/i18n-areas.mjs merge
//     copies every non-empty translation of src/locales/_areas/*.json into the PO catalogs.
import fs from 'node:fs';
import path from 'node:path';
import { parsePo, stringifyPo } from 'pofile-ts';

const ROOT = path.join(import.meta.dirname, '..');
const LOCALES_DIR = path.join(ROOT, 'src/locales');
const AREAS_DIR = path.join(LOCALES_DIR, '_areas');
const TARGETS = ['es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'zh-Hans', 'ja', 'hi', 'ar', 'uk'];
const CATALOGS = ['public', 'server', 'messages', 'emergency'];

const poPath = (locale, catalog) => path.join(LOCALES_DIR, locale, `${catalog}.po`);
const keyOf = (item) => `${item.msgctxt ?? ''}\u0004${item.msgid}`;
const readPo = (locale, catalog) => parsePo(fs.readFileSync(poPath(locale, catalog), 'utf8'));

function skeleton(area, prefixes) {
  const entries = [];
  for (const catalog of CATALOGS) {
    const source = readPo('en', catalog);
    const targets = Object.fromEntries(TARGETS.map((locale) => [locale, new Map(readPo(locale, catalog).items.map((i) => [keyOf(i), i]))]));
    for (const item of source.items) {
      if (item.obsolete) continue;
      const used = item.references.some((ref) => prefixes.some((prefix) => ref.startsWith(`src/${prefix}`)));
      if (!used) continue;
      const entry = { id: item.msgid, ...(item.msgctxt ? { context: item.msgctxt } : {}) };
      if (item.flags['js-lingui-explicit-id'] || item.extractedComments.includes('js-lingui-explicit-id'))
        entry.english = item.msgstr[0] ?? '';
      const comments = item.extractedComments.filter((c) => c !== 'js-lingui-explicit-id');
      if (comments.length) entry.comment = comments.join(' ');
      let missing = false;
      for (const locale of TARGETS) {
        const translated = targets[locale].get(keyOf(item))?.msgstr[0] ?? '';
        entry[locale] = translated;
        if (!translated) missing = true;
      }
      if (missing) entries.push(entry);
    }
  }
  fs.mkdirSync(AREAS_DIR, { recursive: true });
  const file = path.join(AREAS_DIR, `${area}.json`);
  fs.writeFileSync(file, JSON.stringify(entries, null, 2) + '\n');
  console.log(`${entries.length} messages to translate in ${path.relative(ROOT, file)}`);
}

function merge() {
  const files = fs.existsSync(AREAS_DIR) ? fs.readdirSync(AREAS_DIR).filter((f) => f.endsWith('.json')) : [];
  const translations = new Map(); // key -> { locale: text }
  for (const file of files) {
    for (const entry of JSON.parse(fs.readFileSync(path.join(AREAS_DIR, file), 'utf8'))) {
      const key = `${entry.context ?? ''}\u0004${entry.id}`;
      const known = translations.get(key) ?? {};
      for (const locale of TARGETS) if (typeof entry[locale] === 'string' && entry[locale].trim()) known[locale] = entry[locale];
      translations.set(key, known);
    }
  }
  let filled = 0;
  for (const catalog of CATALOGS) {
    for (const locale of TARGETS) {
      const file = poPath(locale, catalog);
      const po = parsePo(fs.readFileSync(file, 'utf8'));
      for (const item of po.items) {
        const text = translations.get(keyOf(item))?.[locale];
        if (text && item.msgstr[0] !== text) {
          item.msgstr = [text];
          filled++;
        }
      }
      fs.writeFileSync(file, stringifyPo(po));
    }
  }
  console.log(`${filled} translations written from ${files.length} area files`);
}

const [command, ...args] = process.argv.slice(2);
if (command === 'skeleton' && args.length >= 2) skeleton(args[0], args.slice(1));
else if (command === 'merge') merge();
else {
  console.error('usage: i18n-areas.mjs skeleton <area> <path-prefix>... | merge');
  process.exit(2);
}
