// The profile's details texts are lines (DESIGN §12, decision 0023): what the emergency page, the
// IPS export and the FHIR import make of a line that is not what its flag names
// (docs/decisions/0035-problem-status-and-none-known-allergies.md):
// - an allergy line that says none are known ("NKDA", "No known drug allergies", "none") is not an
//   allergy, so it never makes a person allergic;
// - a chronic-condition line an import marked " (resolved)" is over, so it is not a chronic
//   condition; one in remission is marked " (in remission)" and stays.

/** What an import appends to a problem that is in remission (a line of the chronic conditions). */
export const IN_REMISSION_MARK = ' (in remission)';
/** What an earlier import appended to a problem that was over; such a line is not a chronic condition. */
export const RESOLVED_MARK = ' (resolved)';

/** Lowercase, single spaces, without the full stops or exclamation marks at the end. */
function normalized(line: string): string {
  let text = line.trim().toLowerCase().split(/\s+/).join(' ');
  while (text.endsWith('.') || text.endsWith('!')) text = text.slice(0, -1).trimEnd();
  return text;
}

/** Ways people and records write "no allergies known" (compared after `normalized`). */
const NONE_KNOWN_ALLERGIES = new Set([
  'nkda',
  'nka',
  'nkma',
  'nkfa',
  'none',
  'none known',
  'nil',
  'nil known',
  'no allergies',
  'no known allergies',
  'no known allergy',
  'no known drug allergies',
  'no known drug allergy',
  'no known medication allergies',
  'no known medication allergy',
  'no known medicine allergies',
  'no known food allergies',
  'no known food allergy',
  'no known allergies to medications',
  'no known allergies to drugs',
  'no allergies known',
  'patient has no known allergies',
]);

/** True when an allergy line only says that no allergies are known. */
export function saysNoAllergies(line: string): boolean {
  return NONE_KNOWN_ALLERGIES.has(normalized(line));
}

/** True when a chronic-condition line is marked as over (" (resolved)", any case). */
export function isResolvedLine(line: string): boolean {
  return normalized(line).endsWith(RESOLVED_MARK.trim());
}

/** The non-empty lines of a details text, trimmed (CRLF, LF or CR). */
export function detailsLines(details: string | null | undefined): string[] {
  return (details ?? '')
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * A flag and its details as the emergency page shows them, without the lines `leaveOut` names: the
 * flag holds only while a line is left (or the details were empty to begin with — a bare "Yes"),
 * and the details are the lines left, or as they were when none was left out.
 */
export function withoutLines(
  flag: boolean,
  details: string | null,
  leaveOut: (line: string) => boolean,
): { flag: boolean; details: string | null } {
  const lines = detailsLines(details);
  const kept = lines.filter((line) => !leaveOut(line));
  if (kept.length === lines.length) return { flag, details };
  return { flag: flag && kept.length > 0, details: kept.length > 0 ? kept.join('\n') : null };
}
