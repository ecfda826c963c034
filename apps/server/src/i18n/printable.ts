import { translator, type Translator } from './translator';

/**
 * The languages whose script the PDFs' and images' font (DejaVu Sans: Latin, Cyrillic, Greek)
 * draws as it is (issue 35, docs/decisions/0055). A wallet card, lock screen or vaccination record
 * asked for in another language (Arabic: it needs shaping and right-to-left order; Hindi,
 * Chinese, Japanese: they need Noto fonts) prints its labels in English — never boxes.
 */
const DRAWN_BY_DEJAVU: ReadonlySet<string> = new Set(['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'uk']);

/** `tr` when the printed font draws its language, else English. */
export function printableTranslator(tr: Translator): Translator {
  return DRAWN_BY_DEJAVU.has(tr.language) ? tr : translator('en');
}
