import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePoFile } from '@lingui/format-po';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { LANGUAGES } from '@kinchart/shared/i18n';
import { compilePoCatalog } from '../../po-catalogs.mjs';
import { MESSAGE_IDS, translator } from './translator';

// Issue 35, docs/decisions/0055: the server's catalogs — every language translates every message,
// with the English message's placeholders, and what is missing falls back to English.

const LOCALES = fileURLToPath(new URL('../locales', import.meta.url));

/** id → msgstr of one language's PO file. */
function read(language: string): Map<string, string> {
  const po = parsePoFile(fs.readFileSync(path.join(LOCALES, language, 'server.po'), 'utf8'));
  return new Map(po.items.map((item) => [item.msgid, item.msgstr[0] ?? '']));
}

/** The placeholders of a message (select and plural arguments included), sorted. */
function placeholders(message: CompiledMessage, out = new Set<string>()): string[] {
  for (const token of message) {
    if (typeof token === 'string') continue;
    const [name, , format] = token;
    out.add(name);
    if (format && typeof format === 'object')
      for (const [key, choice] of Object.entries(format))
        if (key !== 'offset' && Array.isArray(choice)) placeholders(choice as CompiledMessage, out);
  }
  return [...out].sort();
}

describe('server catalogs', () => {
  const english = read('en');

  it('English holds every message the code uses, each with its text', () => {
    expect(MESSAGE_IDS.length).toBeGreaterThan(50);
    expect([...english.keys()].sort()).toEqual([...MESSAGE_IDS].sort());
    for (const [id, text] of english) expect(text, id).not.toBe('');
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s translates every message, keeping its placeholders', (language) => {
    const own = read(language);
    expect([...own.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [id, source] of english) {
      const text = own.get(id) ?? '';
      expect(text, `${language} ${id}`).not.toBe('');
      expect(placeholders(compileMessageOrThrow(text)), `${language} ${id}`).toEqual(placeholders(compileMessageOrThrow(source)));
    }
  });

  it('a message without a translation falls back to English; an unknown language reads English', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-po-'));
    try {
      const po = (language: string, entries: Record<string, string>) => {
        fs.mkdirSync(path.join(dir, language));
        const body = Object.entries(entries)
          .map(([id, text]) => `msgid ${JSON.stringify(id)}\nmsgstr ${JSON.stringify(text)}\n`)
          .join('\n');
        fs.writeFileSync(path.join(dir, language, 'server.po'), body);
      };
      po('en', { 'a.one': 'One {n}', 'a.two': 'Two' });
      po('pl', { 'a.one': 'Jeden {n}', 'a.two': '' });
      const { code } = compilePoCatalog(path.join(dir, 'pl', 'server.po'));
      expect(code).toContain('"a.two":["Two"]');
      expect(code).toContain('"a.one":["Jeden ",["n"]]');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(translator('tlh').t('reminder.title.dose')).toBe('Medication reminder');
    expect(translator(null).language).toBe('en');
    expect(translator('pl').t('reminder.title.dose')).toBe('Przypomnienie o leku');
  });

  it('fills plurals by the language’s own rules', () => {
    const count = (language: string, n: number) => translator(language).t('notice.shared_records_opened', { count: n });
    expect(count('en', 1)).toBe('Someone opened a link you shared to 1 record.');
    expect(count('en', 3)).toBe('Someone opened a link you shared to 3 records.');
    expect(count('pl', 2)).toContain('2 dokumentów');
    expect(count('uk', 2)).toContain('2 записи');
    expect(count('ar', 2)).toContain('سجلين');
  });

  it('refuses an id no catalog has', () => {
    expect(() => translator('en').t('no.such.message')).toThrow(/no server message/);
  });
});
