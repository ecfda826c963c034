import QRCode from 'qrcode';
import type { EmergencyAllergy, EmergencyEssentials } from '@kinchart/shared/emergency';
import { allergyLine } from '@kinchart/shared/allergies';
import { translator, type Translator } from '../../i18n/translator';

/** What every download draws: the person, their code and (when the owner opted in) the essentials (DESIGN §7). */
export interface CardInput {
  name: string;
  qrData: string;
  essentials: EmergencyEssentials | null;
  /** Printed on the wallet card only, and only when the owner typed the right PIN. */
  pin: string | null;
  paper: 'a4' | 'letter';
  /** Issue 35: the words printed, in the requester's language (English when left out). */
  texts?: CardTexts;
}

/** The words a card and a lock screen print (issue 35: in the requester's language, see i18n/printable.ts). */
export interface CardTexts {
  /** The language the words are in: it picks the fonts and, for Arabic, the right-to-left layout. */
  language: string;
  title: string;
  caption: string;
  pinHint: string;
  printNote: string;
  pin: string;
  documentTitle: (name: string) => string;
  labels: Record<'age' | 'species' | 'blood_type' | 'allergies' | 'conditions' | 'bleeding_disorder' | 'medications' | 'contact', string>;
}

export function cardTexts(tr: Translator = translator('en')): CardTexts {
  return {
    language: tr.language,
    title: tr.t('pdf.card.title'),
    caption: tr.t('pdf.card.caption'),
    pinHint: tr.t('pdf.card.pin_hint'),
    printNote: tr.t('pdf.card.print_note'),
    pin: tr.t('pdf.card.pin'),
    documentTitle: (name) => tr.t('pdf.card.document_title', { name }),
    labels: {
      age: tr.t('pdf.label.age'),
      species: tr.t('pdf.label.species'),
      blood_type: tr.t('pdf.label.blood_type'),
      allergies: tr.t('pdf.label.allergies'),
      conditions: tr.t('pdf.label.conditions'),
      bleeding_disorder: tr.t('pdf.label.bleeding_disorder'),
      medications: tr.t('pdf.label.medications'),
      contact: tr.t('pdf.label.contact'),
    },
  };
}

/** The code's modules, error correction H (DESIGN §7: the code must survive a scratched card). */
export function qrMatrix(text: string): { size: number; dark: (row: number, col: number) => boolean } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'H' });
  return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
}

/**
 * The allergies as the card prints them (issue 34): each entry with its reactions ("Peanuts —
 * anaphylaxis"), in the essentials' order — high criticality first; the details text when there are
 * no entries.
 */
function allergiesText(text: string | null, entries: readonly EmergencyAllergy[]): string | null {
  return entries.length > 0 ? entries.map(allergyLine).join('; ') : text;
}

/** The essentials as short labelled lines, in the order a responder needs them. */
export function essentialLines(e: EmergencyEssentials | null, texts: CardTexts = cardTexts()): { label: string; value: string }[] {
  if (!e) return [];
  const { labels } = texts;
  const lines: { label: string; value: string }[] = [];
  const add = (label: string, value: string | null | undefined) => {
    const v = value?.trim();
    if (v) lines.push({ label, value: v });
  };
  add(labels.age, e.age === null ? null : String(e.age));
  // A pet: what it is, and never a blood type (docs/decisions/0037).
  if (e.is_pet) add(labels.species, e.species);
  else add(labels.blood_type, e.blood_type);
  add(labels.allergies, allergiesText(e.allergies, e.allergy_entries));
  add(labels.conditions, e.conditions);
  add(labels.bleeding_disorder, e.bleeding_disorder);
  add(labels.medications, e.medications.filter((m) => m.trim()).join(', '));
  if (e.primary_contact) {
    add(labels.contact, [e.primary_contact.name, e.primary_contact.phone_number].filter(Boolean).join(' · '));
  }
  return lines;
}
