// The IANA time zones the browser knows (issue 32): the choices of every time zone field, and the
// browser's own zone, which a new account starts with.

let cached: string[] | undefined;

/** Every zone the browser knows, UTC among them, in alphabetical order. */
export function timeZoneNames(): string[] {
  if (!cached) {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    cached = [...new Set([...known, 'UTC'])].sort((a, b) => a.localeCompare(b));
  }
  return cached;
}

/** The browser's zone ("Europe/Madrid"), or undefined when it does not say. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

const labels = new Map<string, string>();

/** "Europe/Madrid" → "Europe/Madrid (UTC+01:00)": the zone and its offset today (kept for the page's life). */
export function timeZoneLabel(zone: string): string {
  let label = labels.get(zone);
  if (label === undefined) {
    label = describeZone(zone, new Date());
    labels.set(zone, label);
  }
  return label;
}

function describeZone(zone: string, now: Date): string {
  try {
    const part = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(now)
      .find((p) => p.type === 'timeZoneName')?.value;
    const offset = !part || part === 'GMT' ? 'UTC' : part.replace('GMT', 'UTC');
    return `${zone.replaceAll('_', ' ')} (${offset})`;
  } catch {
    return zone;
  }
}
