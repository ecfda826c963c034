// Issue 35, DESIGN §15: the catalogs are kept honest in CI (`npm run i18n:check`, part of `npm test`).
// Fails when:
// - a catalog is out of date with the code (a string was wrapped but not extracted): `lingui check sync`;
// - any language lacks a translation of any message: `lingui check missing --mode catalog`;
// - a message or translation is not valid ICU MessageFormat, or a translation's placeholders
//   ({name}, <0>…</0>) differ from the English ones (a translation that drops {count} would print
//   a wrong sentence), or a plural lacks its `other` form.
// Unwrapped strings in the code are caught by lint (lingui/no-unlocalized-strings).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compareVariables, parsePo, validateIcu } from 'pofile-ts';

const ROOT = path.join(import.meta.dirname, '..');
const LOCALES_DIR = path.join(ROOT, 'src/locales');
const TARGETS = ['es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'zh-Hans', 'ja', 'hi', 'ar', 'uk'];
const CATALOGS = ['public', 'server', 'messages', 'emergency'];
const lingui = path.join(ROOT, 'node_modules/.bin/lingui');
const bin = fs.existsSync(lingui) ? lingui : path.join(ROOT, '../../node_modules/.bin/lingui');

let failures = 0;
function fail(text) {
  failures++;
  console.error(`✗ ${text}`);
}

function run(args) {
  try {
    const out = execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (/FAIL/.test(out)) fail(`lingui ${args.join(' ')}:\n${out}`);
  } catch (error) {
    fail(`lingui ${args.join(' ')}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

run(['check', 'sync']);
run(['check', 'missing', '--mode', 'catalog', '--locale', TARGETS.join(',')]);

const keyOf = (item) => `${item.msgctxt ?? ''}\u0004${item.msgid}`;
for (const catalog of CATALOGS) {
  const source = parsePo(fs.readFileSync(path.join(LOCALES_DIR, 'en', `${catalog}.po`), 'utf8'));
  const english = new Map();
  for (const item of source.items) {
    if (item.obsolete) continue;
    // Explicit ids (the emergency page's keys) carry their English in msgstr; generated ones in msgid.
    const text = item.msgstr[0] || item.msgid;
    english.set(keyOf(item), text);
    const valid = validateIcu(text, { ignoreTag: true });
    if (!valid.valid) fail(`en/${catalog}.po: "${text}" is not valid ICU: ${valid.errors.map((e) => e.message).join('; ')}`);
  }
  for (const locale of TARGETS) {
    const file = path.join(LOCALES_DIR, locale, `${catalog}.po`);
    const po = parsePo(fs.readFileSync(file, 'utf8'));
    for (const item of po.items) {
      const translation = item.msgstr[0];
      const original = english.get(keyOf(item));
      if (item.obsolete || !translation || original === undefined) continue;
      const where = `${locale}/${catalog}.po "${original.slice(0, 60)}"`;
      const valid = validateIcu(translation, { ignoreTag: true });
      if (!valid.valid) {
        fail(`${where}: not valid ICU: ${valid.errors.map((e) => e.message).join('; ')}`);
        continue;
      }
      const compared = compareVariables(original, translation);
      if (!compared.isMatch)
        fail(`${where}: placeholders differ (missing ${compared.missing.join(', ') || '-'}, extra ${compared.extra.join(', ') || '-'})`);
    }
  }
}

// The ids of the success messages (SPEC §5 green) follow the English catalog.
try {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/gen-success-ids.mjs'), '--check'], { stdio: ['ignore', 'pipe', 'pipe'] });
} catch (error) {
  fail(String(error.stderr ?? error.message));
}

if (failures > 0) {
  console.error(
    `\n${failures} problem(s) in the message catalogs (apps/web/src/locales). Run \`npx lingui extract\` in apps/web after wrapping strings.`,
  );
  process.exit(1);
}
console.log('Message catalogs: in sync with the code, complete in every language, valid ICU.');
