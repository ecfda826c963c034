const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * A record or upload date for people. A bare YYYY-MM-DD is a calendar date and is shown as that
 * very day (parsing it as UTC would show the day before west of Greenwich).
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return 'Not provided';
  const bare = DATE_ONLY.exec(value);
  const date = bare ? new Date(Number(bare[1]), Number(bare[2]) - 1, Number(bare[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** A date-time for messages such as 'File "x" uploaded on {date-time}'. */
export function formatDateTime(date: Date): string {
  return date.toLocaleString();
}

/** Today in the user's own time zone as YYYY-MM-DD: the Visit Date default (SPEC §3). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A record field that may be blank. */
export function orNotProvided(value: string | null | undefined): string {
  return value?.trim() ? value : 'Not provided';
}
