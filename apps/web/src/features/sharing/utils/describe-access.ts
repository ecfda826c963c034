import type { AccessEvent } from '@kinchart/shared/people';

/*
 * The access history lists each use of a share by the route it went through ("GET
 * /api/user/files/:id/content"); the owner reads it as words ("Opened a record file"). Events of
 * the shares themselves ("Accepted an invitation (Editor)") already come as words and pass through,
 * and a route not named here shows as it is rather than not at all.
 */

const VERBS: Record<string, string> = {
  GET: 'Viewed',
  HEAD: 'Viewed',
  POST: 'Added',
  PUT: 'Changed',
  PATCH: 'Changed',
  DELETE: 'Deleted',
};

/** What a route touches, from its most specific known segment (checked in this order). */
const SUBJECTS: [segment: string, words: string][] = [
  ['access-history', 'the access history'],
  ['shares', 'who has access'],
  ['qr', 'the emergency code'],
  ['wearable-qr', 'the emergency code'],
  ['emergency-contacts', 'emergency contacts'],
  ['healthcare-providers', 'healthcare providers'],
  ['share-links', 'file share links'],
  ['medications', 'medications'],
  ['immunizations.pdf', 'the vaccination record'],
  ['immunizations', 'vaccinations'],
  ['lab-results', 'lab results'],
  ['conditions', 'conditions'],
  ['procedures', 'procedures'],
  ['appointments', 'appointments'],
  ['files', 'record files'],
  ['upload', 'record files'],
];

const ROUTE = /^(GET|HEAD|POST|PUT|PATCH|DELETE) (\/\S*)$/;

export function describeAccess(event: Pick<AccessEvent, 'what'>): string {
  const match = ROUTE.exec(event.what);
  if (!match) return event.what;
  const [, method = '', path = ''] = match;
  const segments = path.split('/').filter((s) => s !== '' && !s.startsWith(':'));
  const verb = VERBS[method] ?? method;
  // A file's own content is opening it, not viewing the list.
  if (method === 'GET' && segments.includes('files') && (segments.includes('content') || segments.includes('download'))) {
    return 'Opened a record file';
  }
  const subject = SUBJECTS.find(([segment]) => segments.includes(segment))?.[1];
  if (subject) return `${verb} ${subject}`;
  if (segments.includes('people') || segments.includes('members') || segments.includes('getPatientProfile')) {
    return method === 'GET' || method === 'HEAD' ? 'Viewed the profile' : `${verb === 'Added' ? 'Changed' : verb} the profile`;
  }
  return event.what;
}

const VIEWED = 'Viewed ';

/**
 * Several reads made one entry (docs/decisions/0032): what they touched, in one line — "Viewed the
 * profile, record files and conditions; opened a record file". Each thing once, latest first.
 */
export function describeAccesses(event: Pick<AccessEvent, 'what' | 'what_all'>): string {
  const all = event.what_all.length > 0 ? event.what_all : [event.what];
  const phrases = [...new Set(all.map((what) => describeAccess({ what })))];
  const viewed = phrases.filter((p) => p.startsWith(VIEWED)).map((p) => p.slice(VIEWED.length));
  const others = phrases.filter((p) => !p.startsWith(VIEWED));
  const parts = viewed.length > 0 ? [`${VIEWED}${new Intl.ListFormat('en', { type: 'conjunction' }).format(viewed)}`, ...others] : others;
  return parts.map((part, i) => (i === 0 ? part : part.charAt(0).toLowerCase() + part.slice(1))).join('; ');
}

/** "9:05 AM" in the reader's time zone; the raw text if it is not a time. */
export function formatTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(new Date(time));
}

/** "Mar 4, 2026, 9:05 AM" in the reader's time zone; the raw text if it is not a time. */
export function formatWhen(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(
    new Date(time),
  );
}
