// RFC 5545 iCalendar output for a user's appointments.

export interface IcsEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  location: string | null;
  description: string | null;
  /**
   * The date (YYYY-MM-DD) of an appointment with neither a start nor an end time: SPEC §3 spans
   * its whole day, written as an all-day event (RFC 5545 §3.6.1: DTSTART;VALUE=DATE, DTEND the
   * next day) so it stays on its own date in every time zone. `start` and `end` are then unused.
   */
  allDay?: string;
  /** Minutes before the start of each alarm (a VALARM apiece, RFC 5545 §3.6.6). */
  alarms?: readonly number[];
}

/** A subscribed calendar's own name and how often readers should fetch it again (RFC 7986). */
export interface IcsFeedHeader {
  name: string;
  /** An RFC 5545 duration, such as PT1H. */
  refresh: string;
}

/**
 * RFC 5545 §3.3.11: backslash, semicolon, comma and line breaks are escaped in TEXT values. A line
 * break is CRLF, LF or a bare CR (old Mac text, pasted notes): each becomes one `\n`, since a raw
 * CR left in a content line ends it early for many readers. Every other control character (§3.1
 * CONTROL: U+0000–U+0008, U+000A–U+001F, U+007F — all but the tab) has no place in a TEXT value
 * and is dropped.
 */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '')
  );
}

/** RFC 5545 §3.1: lines longer than 75 octets are folded with CRLF + one space, never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with a space
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** 20261121T093000Z */
export const icsUtc = (d: Date): string =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** 2026-12-31 → 20261231, and the next day's date, counted in UTC so no clock change moves it. */
function dateValue(date: string, addDays = 0): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + addDays);
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}

function span(e: IcsEvent): string[] {
  if (e.allDay) return [`DTSTART;VALUE=DATE:${dateValue(e.allDay)}`, `DTEND;VALUE=DATE:${dateValue(e.allDay, 1)}`];
  return [`DTSTART:${icsUtc(e.start)}`, `DTEND:${icsUtc(e.end)}`];
}

/**
 * A calendar file; with `feed`, a subscribed calendar's header too: its RFC 7986 NAME and
 * REFRESH-INTERVAL, and the X-WR-CALNAME / X-PUBLISHED-TTL older readers know instead.
 */
export function buildCalendar(events: IcsEvent[], now: Date = new Date(), feed?: IcsFeedHeader): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Kinchart//Appointments 1.0//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  if (feed) {
    const name = escapeText(feed.name);
    lines.push(
      `NAME:${name}`,
      `X-WR-CALNAME:${name}`,
      `REFRESH-INTERVAL;VALUE=DURATION:${feed.refresh}`,
      `X-PUBLISHED-TTL:${feed.refresh}`,
    );
  } else {
    lines.push('X-WR-CALNAME:Kinchart appointments');
  }
  for (const e of events) {
    lines.push('BEGIN:VEVENT', `UID:${e.uid}@kinchart`, `DTSTAMP:${icsUtc(now)}`, ...span(e), `SUMMARY:${escapeText(e.summary)}`);
    if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`);
    if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`);
    for (const minutes of e.alarms ?? []) {
      lines.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        minutes === 0 ? 'TRIGGER:PT0M' : `TRIGGER:-PT${minutes}M`,
        `DESCRIPTION:${escapeText(e.summary)}`,
        'END:VALARM',
      );
    }
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
