import { looksLikeZoneName } from '@kinchart/shared/care';
// Time zones without a time-zone database of our own: Intl knows the IANA zones. The web app sends
// the browser's zone (`?tz=`), so wall-clock times a person typed are placed where they live.

/**
 * A wall-clock time ("2026-05-01T14:30:00") in an IANA time zone → the UTC instant. ISO instants
 * with a zone pass through. Uses Intl, so no time-zone database ships with us.
 *
 * Across a daylight-saving change (RFC 5545 §3.3.5, as iCalendar readers and Temporal's
 * "compatible" choice do): a time the spring-forward gap skips is moved forward by the gap's
 * length (02:30 → 03:30), and a time the fall-back hour repeats is its first occurrence.
 */
export function toInstant(value: string, timeZone: string): Date {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(value)) return new Date(value);
  const asUtc = new Date(`${value}Z`).getTime();
  const DAY = 86_400_000;
  // The offsets a day before and a day after: zones change at most once within two days.
  const before = offsetMinutes(new Date(asUtc - DAY), timeZone) * 60_000;
  const after = offsetMinutes(new Date(asUtc + DAY), timeZone) * 60_000;
  // The instants that read as this wall clock, earliest first (two at a fall-back, none in a gap).
  const candidates = [...new Set([asUtc - before, asUtc - after])]
    .sort((a, b) => a - b)
    .filter((instant) => offsetMinutes(new Date(instant), timeZone) * 60_000 === asUtc - instant);
  // In a gap the offset before the change applies, which lands the gap's length later.
  return new Date(candidates[0] ?? asUtc - before);
}

/** Zones already asked about (constructing an Intl formatter costs tens of microseconds; the scheduler asks per person each minute). */
const knownZones = new Map<string, boolean>();

/** An IANA zone the runtime knows; a bare UTC offset ("+05:00"), which Intl also takes, is none. */
export function isValidTimeZone(timeZone: string): boolean {
  if (!looksLikeZoneName(timeZone)) return false;
  const known = knownZones.get(timeZone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    valid = true;
  } catch {
    valid = false;
  }
  if (knownZones.size < 1000) knownZones.set(timeZone, valid);
  return valid;
}

/**
 * One formatter per zone: making an Intl.DateTimeFormat costs far more than using one (a 92-day
 * dose list asks for thousands of offsets), and the set of zones in use is small.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Only zones Intl accepted get here (it throws on others). Intl also accepts any spelling's
    // case ("europe/MADRID"), so the map is bounded rather than trusted to stay small.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at `instant`, in minutes (−300 for Montréal in winter). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((local - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * An instant written as the wall clock of `timeZone` with its offset: `2027-03-04T09:30:00-05:00`
 * for 14:30Z in Montréal, `…+00:00` in UTC. A FHIR instant or dateTime that reads as the person's
 * own time, and still names one moment.
 */
export function withOffset(instant: Date, timeZone: string): string {
  const minutes = offsetMinutes(instant, timeZone);
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + minutes * 60_000).toISOString().slice(0, 19);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
