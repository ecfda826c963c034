import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePo } from 'pofile-ts';

// Issue 35: what the journeys know of the app's catalogs, read from the PO files themselves.

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/web/src/locales');

interface CatalogText {
  /** The English text (generated ids: the msgid; explicit ids: the English catalog's msgstr). */
  english: string;
  translation: string;
}

function read(locale: string, catalog: string): Map<string, string> {
  const po = parsePo(readFileSync(path.join(localesDir, locale, `${catalog}.po`), 'utf8'));
  const map = new Map<string, string>();
  for (const item of po.items) if (!item.obsolete) map.set(`${item.msgctxt ?? ''}\u0004${item.msgid}`, item.msgstr[0] ?? '');
  return map;
}

/** Every app message with its English text and its translation into `locale`. */
export function catalogTexts(locale: string): CatalogText[] {
  const parts = ['public', 'server', 'messages'];
  const english = new Map(parts.flatMap((part) => [...read('en', part)]));
  const target = new Map(parts.flatMap((part) => [...read(locale, part)]));
  return [...english.entries()].map(([key, englishStr]) => ({
    english: englishStr || key.slice(key.indexOf('\u0004') + 1),
    translation: target.get(key) ?? '',
  }));
}

const PLACEHOLDER = /\{[^{}]*\}|<\/?\d+>/g;

/**
 * The English catalog texts that would betray an untranslated screen: whole messages without
 * placeholders, and the long literal pieces of those with placeholders — each only where the
 * translation differs from the English (a "PIN" that stays "PIN" is not a leftover).
 */
export function englishLeftoverProbes(locale: string): { exact: Set<string>; pieces: string[] } {
  const exact = new Set<string>();
  const pieces: string[] = [];
  for (const { english, translation } of catalogTexts(locale)) {
    if (!translation || translation === english) continue;
    if (english.includes('{') || english.includes('<')) {
      for (const piece of english.split(PLACEHOLDER)) {
        const trimmed = piece.trim();
        if (trimmed.length >= 14 && !translation.includes(trimmed)) pieces.push(trimmed);
      }
    } else {
      exact.add(english.trim());
    }
  }
  return { exact, pieces };
}
