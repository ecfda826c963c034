import QRCode from 'qrcode';
import type { EmergencyAllergy, EmergencyEssentials } from '@kinchart/shared/emergency';
import { allergyLine } from '@kinchart/shared/allergies';

/** What every download draws: the person, their code and (when the owner opted in) the essentials (DESIGN §7). */
export interface CardInput {
  name: string;
  qrData: string;
  essentials: EmergencyEssentials | null;
  /** Printed on the wallet card only, and only when the owner typed the right PIN. */
  pin: string | null;
  paper: 'a4' | 'letter';
}

export const CAPTION = 'Medical information — scan with a phone camera';
/** Issue 30: a card without the essentials says how to see the information, not just a name and a code. */
export const PIN_HINT = 'To see the medical information, scan the code and enter the PIN.';

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
export function essentialLines(e: EmergencyEssentials | null): { label: string; value: string }[] {
  if (!e) return [];
  const lines: { label: string; value: string }[] = [];
  const add = (label: string, value: string | null | undefined) => {
    const v = value?.trim();
    if (v) lines.push({ label, value: v });
  };
  add('Age', e.age === null ? null : String(e.age));
  // A pet: what it is, and never a blood type (docs/decisions/0037).
  if (e.is_pet) add('Species', e.species);
  else add('Blood type', e.blood_type);
  add('Allergies', allergiesText(e.allergies, e.allergy_entries));
  add('Conditions', e.conditions);
  add('Bleeding disorder', e.bleeding_disorder);
  add('Medications', e.medications.filter((m) => m.trim()).join(', '));
  if (e.primary_contact) {
    add('Contact', [e.primary_contact.name, e.primary_contact.phone_number].filter(Boolean).join(' · '));
  }
  return lines;
}
