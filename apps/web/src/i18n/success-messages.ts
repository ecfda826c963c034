import { i18n } from '@lingui/core';
import { SUCCESS_MESSAGE_IDS } from './success-messages.generated';

// SPEC §5: a status message is green when it says "success". In English the word is there; in
// another language the message is the translation of one whose English has it.
let cached: { locale: string; texts: Set<string> } | null = null;

function translatedSuccessTexts(): Set<string> {
  if (cached?.locale !== i18n.locale) {
    cached = { locale: i18n.locale, texts: new Set(SUCCESS_MESSAGE_IDS.map((id) => i18n._(id))) };
  }
  return cached.texts;
}

/** True for a success message in any language: the SPEC's word, or a translated success message. */
export function isSuccessText(message: string): boolean {
  return message.toLowerCase().includes('success') || translatedSuccessTexts().has(message);
}
