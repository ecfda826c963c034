import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { AccessEvent } from '@kinchart/shared/people';
import { intlLocale, isAppLanguage } from '../../../i18n/languages';
import { roleLabel } from './role-words';

/*
 * The access history lists each use of a share by the route it went through ("GET
 * /api/user/files/:id/content"); the owner reads it as words ("Opened a record file"). Events of
 * the shares themselves ("Accepted an invitation (Editor)") already come as words and pass through,
 * and a route not named here shows as it is rather than not at all.
 */

type Verb = 'viewed' | 'added' | 'changed' | 'deleted';

const VERBS: Record<string, Verb> = {
  GET: 'viewed',
  HEAD: 'viewed',
  POST: 'added',
  PUT: 'changed',
  PATCH: 'changed',
  DELETE: 'deleted',
};

const APPOINTMENTS = msg({ message: 'appointments', comment: 'Access history: what was viewed, added, changed or deleted' });
const SCHEDULES = msg({ message: 'medication schedules', comment: 'Access history: what was viewed, added, changed or deleted' });

/** What a route touches, from its most specific known segment (checked in this order). */
const SUBJECTS: [segment: string, words: MessageDescriptor][] = [
  ['access-history', msg({ message: 'the access history', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['shares', msg({ message: 'who has access', comment: 'Access history: what was viewed, added, changed or deleted' })],
  // Issue 32: before "medications", which a schedule's path also names.
  ['schedule', SCHEDULES],
  ['schedules', SCHEDULES],
  ['doses', msg({ message: 'doses', comment: 'Access history: what was viewed, added, changed or deleted' })],
  [
    'adherence',
    msg({ message: 'adherence', comment: 'Access history: what was viewed, added, changed or deleted (how many doses were taken)' }),
  ],
  ['reminder-settings', msg({ message: 'reminder settings', comment: 'Access history: what was viewed, added, changed or deleted' })],
  // A private calendar feed read by a calendar app (GET /api/calendar/{token}.ics), and the appointments' calendar file.
  ['calendar', msg({ message: 'the calendar feed', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['appointments.ics', APPOINTMENTS],
  ['qr', msg({ message: 'the emergency code', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['wearable-qr', msg({ message: 'the emergency code', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['emergency-contacts', msg({ message: 'emergency contacts', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['healthcare-providers', msg({ message: 'healthcare providers', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['share-links', msg({ message: 'file share links', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['medications', msg({ message: 'medications', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['immunizations.pdf', msg({ message: 'the vaccination record', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['immunizations', msg({ message: 'vaccinations', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['lab-results', msg({ message: 'lab results', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['conditions', msg({ message: 'conditions', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['procedures', msg({ message: 'procedures', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['appointments', APPOINTMENTS],
  ['files', msg({ message: 'record files', comment: 'Access history: what was viewed, added, changed or deleted' })],
  ['upload', msg({ message: 'record files', comment: 'Access history: what was viewed, added, changed or deleted' })],
];

const ROUTE = /^(GET|HEAD|POST|PUT|PATCH|DELETE) (\/\S*)$/;

/** One thing done to a subject: "Viewed record files". */
function didTo(verb: Verb, subject: string): string {
  switch (verb) {
    case 'viewed':
      return t({ message: `Viewed ${subject}`, comment: 'Access history: someone viewed something ("Viewed record files")' });
    case 'added':
      return t({ message: `Added ${subject}`, comment: 'Access history: someone added something ("Added record files")' });
    case 'changed':
      return t({ message: `Changed ${subject}`, comment: 'Access history: someone changed something ("Changed medications")' });
    case 'deleted':
      return t({ message: `Deleted ${subject}`, comment: 'Access history: someone deleted something ("Deleted appointments")' });
  }
}

/** A route as what happened: the verb and what it touched, or the profile, or a file opened. */
interface Access {
  verb: Verb;
  /** The thing touched, in words; null: the profile itself. */
  subject: string | null;
}

function accessOf(what: string): Access | 'opened-file' | null {
  const match = ROUTE.exec(what);
  if (!match) return null;
  const [, method = '', path = ''] = match;
  const segments = path.split('/').filter((s) => s !== '' && !s.startsWith(':'));
  const verb = VERBS[method];
  if (!verb) return null;
  // A file's own content is opening it, not viewing the list.
  if (method === 'GET' && segments.includes('files') && (segments.includes('content') || segments.includes('download'))) {
    return 'opened-file';
  }
  const subject = SUBJECTS.find(([segment]) => segments.includes(segment))?.[1];
  if (subject) return { verb, subject: i18n._(subject) };
  if (segments.includes('people') || segments.includes('members') || segments.includes('getPatientProfile')) {
    return { verb: verb === 'added' ? 'changed' : verb, subject: null };
  }
  return null;
}

function accessWords(access: Access | 'opened-file'): string {
  if (access === 'opened-file') return t`Opened a record file`;
  if (access.subject !== null) return didTo(access.verb, access.subject);
  switch (access.verb) {
    case 'viewed':
      return t`Viewed the profile`;
    case 'deleted':
      return t`Deleted the profile`;
    case 'added':
    case 'changed':
      return t`Changed the profile`;
  }
}

/*
 * The shares' own events come from the server as English words ("Accepted an invitation
 * (Editor)"); the known ones are read back into the reader's language, anything else shows as
 * it came.
 */
const SHARE_EVENT =
  /^(Created an invitation|Accepted an invitation|Cancelled an invitation|Cancelled a passed-on invitation|Ended a share|Ended a passed-on share|Left the share) \((Viewer|Editor|Manager|Unknown role)\)$/;
const ROLE_CHANGE = /^Changed (an invitation|a role) \((Viewer|Editor|Manager|Unknown role) to (Viewer|Editor|Manager|Unknown role)\)$/;

const roleWords = (label: string) => (label === 'Unknown role' ? t`Unknown role` : roleLabel(label.toLowerCase()));

function shareEventWords(what: string): string | null {
  const event = SHARE_EVENT.exec(what);
  if (event?.[1] && event[2]) {
    const role = roleWords(event[2]);
    switch (event[1]) {
      case 'Created an invitation':
        return t`Created an invitation (${role})`;
      case 'Accepted an invitation':
        return t`Accepted an invitation (${role})`;
      case 'Cancelled an invitation':
        return t`Cancelled an invitation (${role})`;
      case 'Cancelled a passed-on invitation':
        return t`Cancelled a passed-on invitation (${role})`;
      case 'Ended a share':
        return t`Ended a share (${role})`;
      case 'Ended a passed-on share':
        return t`Ended a passed-on share (${role})`;
      default:
        return t`Left the share (${role})`;
    }
  }
  const change = ROLE_CHANGE.exec(what);
  if (change?.[1] && change[2] && change[3]) {
    const from = roleWords(change[2]);
    const to = roleWords(change[3]);
    return change[1] === 'a role' ? t`Changed a role (${from} to ${to})` : t`Changed an invitation (${from} to ${to})`;
  }
  return null;
}

export function describeAccess(event: Pick<AccessEvent, 'what'>): string {
  const access = accessOf(event.what);
  return access ? accessWords(access) : (shareEventWords(event.what) ?? event.what);
}

/**
 * Several reads made one entry (docs/decisions/0032): what they touched, in one line — "Viewed the
 * profile, record files and conditions; opened a record file". Each thing once, latest first.
 */
export function describeAccesses(event: Pick<AccessEvent, 'what' | 'what_all'>): string {
  const all = event.what_all.length > 0 ? event.what_all : [event.what];
  const viewed: string[] = [];
  const others: string[] = [];
  for (const what of all) {
    const access = accessOf(what);
    if (access !== null && access !== 'opened-file' && access.verb === 'viewed') {
      const subject =
        access.subject ?? t({ message: 'the profile', comment: 'Access history: what was viewed, added, changed or deleted' });
      if (!viewed.includes(subject)) viewed.push(subject);
    } else {
      const words = describeAccess({ what });
      if (!others.includes(words)) others.push(words);
    }
  }
  const locale = activeIntlLocale();
  const parts =
    viewed.length > 0 ? [didTo('viewed', new Intl.ListFormat(locale, { type: 'conjunction' }).format(viewed)), ...others] : others;
  // English runs the phrases on in one sentence ("…; opened a record file"); other languages keep
  // each phrase as written (German nouns keep their capital).
  const runOn = locale === 'en' || locale.startsWith('en-');
  return parts.map((part, i) => (i === 0 || !runOn ? part : part.charAt(0).toLowerCase() + part.slice(1))).join('; ');
}

/** The locale times are written in (the pseudo-locale formats as English). */
export function activeIntlLocale(): string {
  return intlLocale(isAppLanguage(i18n.locale) ? i18n.locale : 'en');
}

/** "9:05 AM" in the reader's time zone; the raw text if it is not a time. */
export function formatTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat(activeIntlLocale(), { hour: 'numeric', minute: '2-digit' }).format(new Date(time));
}

/** "Mar 4, 2026, 9:05 AM" in the reader's time zone; the raw text if it is not a time. */
export function formatWhen(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat(activeIntlLocale(), {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(time));
}
