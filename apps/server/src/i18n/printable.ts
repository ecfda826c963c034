import { languageScript, scriptFontsPresent } from '../lib/print-fonts';
import { translator, type Translator } from './translator';

/**
 * Issue 35 (docs/decisions/0055): the PDFs (wallet card, vaccination record) and the lock-screen image
 * print in the requester's language when their fonts draw its script: DejaVu Sans for Latin and Cyrillic; Noto (Debian's
 * fonts-noto-core and fonts-noto-cjk) for Arabic — shaped, right to left — Devanagari, Chinese and
 * Japanese. On a machine without those fonts that language prints English labels: never boxes.
 */
const DRAWN_BY_DEJAVU: ReadonlySet<string> = new Set(['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'uk']);

/** `tr` when the fonts draw its language, else English. */
export function printableTranslator(tr: Translator): Translator {
  if (DRAWN_BY_DEJAVU.has(tr.language)) return tr;
  const script = languageScript(tr.language);
  return script && scriptFontsPresent(script) ? tr : translator('en');
}
