import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_REMINDER_MINUTES, DUE_MINUTES, addDays, doseIdOf, localDoseTimes } from '@kinchart/shared/care';
import type { Db } from '../../db/database';
import type { Mailer } from '../../common/mailer';
import { addNotifications } from '../../common/notify';
import { createTimeZones } from '../../common/time-zones';
import { randomToken, sha256Hex } from '../../lib/ids';
import { toInstant, withOffset } from '../../lib/time-zone';
import type { PushSender } from './push-sender';
import { settingsOf } from './reminder-settings.service';
import type { ReminderFacts, ReminderKind, ReminderText, ReminderWhen } from './reminder-texts';
import { reminderText } from './reminder-texts';
import { translator } from '../../i18n/translator';
import type { OccurrenceRow } from './reminders.repository';
import { createReminderRepository } from './reminders.repository';

// The reminder scheduler (issue 32, DESIGN §13, docs/decisions/0044). Each tick computes the
// reminders due since the last tick from the schedules, the dose log and the appointments — all
// local times of each person's zone — and claims each one as a row of `reminder_occurrences`
// (primary key: what it is). Only the instance whose insert wins delivers it, to each recipient and
// channel through `reminder_deliveries` (primary key: occurrence, recipient, channel): once across
// restarts and instances, on SQLite and PostgreSQL alike, with no job library. One found an hour or
// more late (the server was down) is written as missed and not sent; under an hour, sent marked late.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How far back the first tick after a start looks for what was due while the server was down. */
const CATCH_UP_MS = 24 * HOUR;
/** Each tick looks back this much before the last one too: a tick of another instance may have run late. */
const OVERLAP_MS = 2 * MINUTE;
/** A push action token's life. */
export const ACTION_TOKEN_MS = 12 * HOUR;
/** Refill reminders go at this local time on their day. */
const REFILL_TIME = '09:00';
/** Pushes in flight at once in a tick (requests to the browsers' push services). */
const PUSH_CONCURRENCY = 50;
/** Occurrences are kept this long (what the catch-up needs), then pruned. */
const KEEP_MS = 3 * 24 * HOUR;

type Channel = 'in_app' | 'email' | 'push';
type PushTargetRow = Awaited<ReturnType<ReturnType<typeof createReminderRepository>['subscriptionsOf']>>[number];
type Settings = ReturnType<typeof settingsOf>;
type SettingFlag = keyof Settings;

/** One reminder due: what it is, who may get it (the person's owner and holders opted in to `flag`), and its words. */
interface Due {
  key: string;
  kind: ReminderKind;
  dueAt: number;
  profileId: string;
  ownerId: string;
  flag: SettingFlag;
  personName: string | null;
  /** The person is their owner's own profile (the owner reads "your"). */
  isSelf: boolean;
  subject: string | null;
  /** When, as facts: each recipient reads it in their own language (issue 35). */
  when: ReminderWhen;
  /** The dose a push action acts on (dose reminders only). */
  doseId?: string;
  /** A snooze's one recipient. */
  onlyUser?: string;
}

/** What a tick did: reminders sent on time and late (to at least one recipient), found an hour late (not sent), and deliveries made. */
export interface TickReport {
  sent: number;
  late: number;
  missed: number;
  deliveries: number;
}

export type ReminderScheduler = ReturnType<typeof createReminderScheduler>;

/** The date a tracked quantity runs out, following the schedule from `today` (null after two years or when not tracked). */
export function runsOutOn(
  s: { times: string[]; days: number[]; start_date: string; end_date: string | null; as_needed: boolean },
  quantity: number,
  doseUnits: number,
  today: string,
): string | null {
  let left = quantity;
  for (let date = today, n = 0; n < 731; date = addDays(date, 1), n += 1) {
    const doses = localDoseTimes(s, date, date).length;
    if (doses === 0) {
      if (s.end_date && date > s.end_date) return null;
      continue;
    }
    left -= doses * doseUnits;
    if (left < 0) return date;
  }
  return null;
}

export function createReminderScheduler(deps: {
  db: Db;
  mailer: Mailer | undefined;
  push: PushSender | undefined;
  publicUrl: string;
  log: FastifyBaseLogger;
  now?: () => Date;
}) {
  const { db, mailer, push, log } = deps;
  const repo = createReminderRepository(db);
  const zones = createTimeZones(db);
  const clock = deps.now ?? (() => new Date());
  let lastTick: number | undefined;
  let running: Promise<TickReport> | undefined;

  /** The instant a local wall clock names in `zone`, cached for the tick (few zones, few times). */
  function instantCache() {
    const cache = new Map<string, number>();
    return (local: string, zone: string): number => {
      const k = `${zone}|${local}`;
      let v = cache.get(k);
      if (v === undefined) {
        v = toInstant(local, zone).getTime();
        cache.set(k, v);
      }
      return v;
    };
  }

  const localDate = (instant: number, zone: string) => withOffset(new Date(instant), zone).slice(0, 10);
  const localMinute = (instant: number, zone: string) => withOffset(new Date(instant), zone).slice(0, 16);

  /** Every reminder due in (from, to]. */
  async function dueBetween(from: number, to: number): Promise<Due[]> {
    const instant = instantCache();
    const out: Due[] = [];
    const schedules = await repo.scheduledMedications();
    const zoneOf = await zones.ofPeople(schedules.map((s) => s.profile_id));
    const doseDues: Due[] = [];
    // The window's local dates per zone (Intl is slow: once per zone, not per schedule).
    const datesOf = new Map<string, { first: string; last: string; from: string; to: string }>();
    const windowDates = (zone: string) => {
      let dates = datesOf.get(zone);
      if (!dates) {
        const fromDate = localDate(from, zone);
        const toDate = localDate(to, zone);
        // The dates a dose (or its missed alert, an hour later) in the window can be on.
        dates = { first: addDays(localDate(from - DUE_MINUTES * MINUTE, zone), -1), last: addDays(toDate, 1), from: fromDate, to: toDate };
        datesOf.set(zone, dates);
      }
      return dates;
    };
    for (const row of schedules) {
      const zone = zoneOf.get(row.profile_id) ?? 'UTC';
      const dates = windowDates(zone);
      const s = {
        times: JSON.parse(row.times) as string[],
        days: JSON.parse(row.days) as number[],
        start_date: row.start_date,
        end_date: row.end_date,
        as_needed: row.as_needed === 1,
      };
      const base = {
        profileId: row.profile_id,
        ownerId: row.user_id,
        personName: row.person_name,
        isSelf: row.person_is_self === 1,
        subject: row.medication_name,
      };
      const reminded = row.reminders === 1;
      for (const local of localDoseTimes(s, dates.first, dates.last)) {
        const at = instant(local, zone);
        const doseId = doseIdOf(row.medication_id, local);
        const when: ReminderWhen = { at: 'clock', time: local.slice(11, 16) };
        // The schedule's `reminders` flag is about this at-time reminder only; missed-dose alerts are the holders' own choice.
        if (reminded && at > from && at <= to)
          doseDues.push({ ...base, key: `dose:${doseId}`, kind: 'dose', dueAt: at, flag: 'dose_reminders', when, doseId });
        const missedAt = at + DUE_MINUTES * MINUTE;
        if (missedAt > from && missedAt <= to)
          doseDues.push({ ...base, key: `missed:${doseId}`, kind: 'missed', dueAt: missedAt, flag: 'missed_dose_alerts', when, doseId });
      }
      // A refill reminder: at 09:00 on each day from `refill_remind_days` before the runs-out date, once per runs-out date.
      if (reminded && row.quantity_on_hand !== null && row.refill_remind_days !== null) {
        for (let date = dates.from; date <= dates.to; date = addDays(date, 1)) {
          const at = instant(`${date}T${REFILL_TIME}`, zone);
          if (at <= from || at > to) continue;
          const runsOut = runsOutOn(s, row.quantity_on_hand, row.dose_units, date);
          if (runsOut === null || addDays(runsOut, -row.refill_remind_days) > date) continue;
          out.push({
            ...base,
            key: `refill:${row.medication_id}:${runsOut}`,
            kind: 'refill',
            dueAt: at,
            flag: 'dose_reminders',
            when: { at: 'date', date: runsOut },
          });
        }
      }
    }
    // A dose already logged (taken or skipped) is neither reminded of nor missed.
    const logged = await repo.loggedDoses(doseDues.map((d) => d.doseId ?? ''));
    out.push(...doseDues.filter((d) => !logged.has(d.doseId ?? '')));

    // Appointments: at start − each lead time (at most 28 days), in the person's zone.
    const dates: string[] = [];
    for (let date = addDays(new Date(from).toISOString().slice(0, 10), -1); dates.length < 32; date = addDays(date, 1)) dates.push(date);
    const appointments = await repo.appointmentsOn(dates);
    const apptZones = await zones.ofPeople(appointments.flatMap((a) => (a.profile_id ? [a.profile_id] : [])));
    for (const a of appointments) {
      if (!a.profile_id) continue;
      const zone = apptZones.get(a.profile_id) ?? 'UTC';
      const startLocal = a.start_time ? a.start_time.slice(0, 16) : a.appointment_date;
      const start = a.start_time ? toInstant(a.start_time, zone).getTime() : instant(`${a.appointment_date}T00:00`, zone);
      const leads = a.reminder_minutes === null ? DEFAULT_REMINDER_MINUTES : (JSON.parse(a.reminder_minutes) as number[]);
      for (const lead of leads) {
        const at = start - lead * MINUTE;
        if (at <= from || at > to) continue;
        out.push({
          key: `appointment:${a.id}:${lead}:${startLocal}`,
          kind: 'appointment',
          dueAt: at,
          profileId: a.profile_id,
          ownerId: a.user_id,
          flag: 'appointment_reminders',
          personName: a.person_name,
          isSelf: a.person_is_self === 1,
          subject: a.provider_name,
          when: { at: 'appointment', nowLocal: localMinute(at, zone), startLocal, minutesAhead: lead },
        });
      }
    }
    return out;
  }

  /** The recipients of each due reminder: the owner and the holders whose settings say yes. */
  async function recipients(dues: readonly Due[], now: number): Promise<{ byKey: Map<string, string[]>; viewOnly: Set<string> }> {
    const people = [...new Set(dues.map((d) => d.profileId))];
    const settings = new Map<string, { dose_reminders: number; missed_dose_alerts: number; appointment_reminders: number }>();
    for (const s of await repo.settingsOfPeople(people)) settings.set(`${s.user_id}|${s.profile_id}`, s);
    const holders = new Map<string, string[]>();
    // Viewers are reminded but cannot log a dose: their push has no Taken / Snooze buttons.
    const viewOnly = new Set<string>();
    for (const h of await repo.holdersOf(people, new Date(now).toISOString())) {
      if (!h.holder_id) continue;
      if (h.role === 'viewer') viewOnly.add(`${h.holder_id}|${h.profile_id}`);
      holders.set(h.profile_id, [...(holders.get(h.profile_id) ?? []), h.holder_id]);
    }
    const out = new Map<string, string[]>();
    for (const d of dues) {
      if (d.onlyUser) {
        out.set(d.key, [d.onlyUser]);
        continue;
      }
      const users = [d.ownerId, ...new Set(holders.get(d.profileId) ?? [])].filter((u, i) => i === 0 || u !== d.ownerId);
      out.set(
        d.key,
        users.filter((u) => settingsOf(settings.get(`${u}|${d.profileId}`), u === d.ownerId)[d.flag]),
      );
    }
    return { byKey: out, viewOnly };
  }

  /** The recipients' channels and push subscriptions, read once for a tick's reminders. */
  async function recipientsInfo(users: readonly string[]) {
    const unique = [...new Set(users)];
    const channels = new Map((await repo.channelsOf(unique)).map((u) => [u.id, u]));
    const subscriptions = new Map<string, Awaited<ReturnType<typeof repo.subscriptionsOf>>>();
    if (push)
      for (const s of await repo.subscriptionsOf(unique)) subscriptions.set(s.user_id, [...(subscriptions.get(s.user_id) ?? []), s]);
    return { channels, subscriptions };
  }

  /**
   * Delivers claimed reminders to each recipient on each channel they have, once each: the
   * deliveries are claimed in bulk (the primary key decides), then the in-app notices are written in
   * bulk (and published to open pages), then the emails are queued, then the pushes go.
   */
  async function deliver(
    items: readonly { d: Due; users: readonly string[]; late: boolean }[],
    now: number,
    report: TickReport,
    { channels, subscriptions }: Awaited<ReturnType<typeof recipientsInfo>>,
    viewOnly: ReadonlySet<string> = new Set(),
  ) {
    const at = new Date(now).toISOString();
    type Send = {
      d: Due;
      userId: string;
      full: ReminderText;
      outward: ReminderText;
      user: NonNullable<ReturnType<typeof channels.get>>;
      tr: ReturnType<typeof translator>;
    };
    const sends: Send[] = [];
    const wanted: { occurrence_key: string; user_id: string; channel: Channel; delivered_at: string }[] = [];
    for (const { d, users, late } of items) {
      for (const userId of users) {
        const user = channels.get(userId);
        if (!user) continue;
        // Each recipient in their own language (issue 35): two holders of one person may read two.
        const tr = translator(user.language);
        const facts: ReminderFacts = {
          kind: d.kind,
          // The recipient's own profile is "you"; a nameless person is named by what they are to the owner.
          person: d.isSelf && userId === d.ownerId ? null : d.personName?.trim() || tr.t('reminder.family_member'),
          subject: d.subject?.trim() || null,
          when: d.when,
          late,
        };
        sends.push({
          d,
          userId,
          user,
          full: reminderText(facts, false, tr),
          outward: reminderText(facts, user.reminder_minimal === 1, tr),
          tr,
        });
        const row = (channel: Channel) => ({ occurrence_key: d.key, user_id: userId, channel, delivered_at: at });
        wanted.push(row('in_app'));
        if (mailer && user.reminder_email === 1) wanted.push(row('email'));
        if (push && user.reminder_push === 1 && (subscriptions.get(userId)?.length ?? 0) > 0) wanted.push(row('push'));
      }
    }
    const won = await repo.claimDeliveries(wanted);
    const mine = (s: Send, channel: Channel) => won.has(`${s.d.key}|${s.userId}|${channel}`);
    report.deliveries += won.size;

    await addNotifications(
      db,
      sends
        .filter((s) => mine(s, 'in_app'))
        .map((s) => ({
          userId: s.userId,
          type: 'info' as const,
          level: s.d.kind === 'missed' ? ('warning' as const) : ('info' as const),
          title: s.full.title,
          message: s.full.body,
          dedupeKey: `reminder:${s.d.key}:${s.userId}`,
        })),
    );
    for (const s of sends) {
      if (!mailer || !mine(s, 'email')) continue;
      mailer.send(
        {
          to: s.user.email,
          subject: s.tr.t('email.reminder.subject', { title: s.outward.title }),
          text: s.tr.t('email.reminder.text', { body: s.outward.body, url: `${deps.publicUrl}/dashboard` }),
        },
        { message: 'reminder email failed', fields: { kind: s.d.kind } },
      );
    }
    if (!push) return;
    // The pushes: the buttons' tokens written in bulk, then the sends, PUSH_CONCURRENCY at a time
    // (each is a request to a push service; one after another, a busy minute would take many).
    const tokens: Parameters<typeof repo.addActionTokens>[0][number][] = [];
    const jobs: { kind: ReminderKind; target: PushTargetRow; payload: string }[] = [];
    for (const s of sends) {
      if (!mine(s, 'push')) continue;
      const buttons = !!s.d.doseId && (s.d.kind === 'dose' || s.d.kind === 'snooze') && !viewOnly.has(`${s.userId}|${s.d.profileId}`);
      // One token per browser (docs/decisions/0044, "Later changes"): removing a browser's
      // subscription removes the tokens pushed to it, so a lost phone's Taken stops working.
      for (const target of subscriptions.get(s.userId) ?? []) {
        let token: string | undefined;
        if (buttons && s.d.doseId) {
          token = randomToken();
          tokens.push({
            token_hash: sha256Hex(token),
            user_id: s.userId,
            profile_id: s.d.profileId,
            dose_id: s.d.doseId,
            expires_at: new Date(now + ACTION_TOKEN_MS).toISOString(),
            subscription_id: target.id,
          });
        }
        const payload = JSON.stringify({
          title: s.outward.title,
          body: s.outward.body,
          tag: s.d.doseId ? `dose:${s.d.doseId}` : s.d.key,
          url: '/dashboard',
          // The buttons' words in the recipient's language: the service worker shows them.
          ...(token
            ? {
                token,
                actions: ['taken', 'snooze'],
                action_titles: { taken: s.tr.t('push.action.taken'), snooze: s.tr.t('push.action.snooze') },
                action_failed: s.tr.t('push.action.failed'),
              }
            : {}),
        });
        jobs.push({ kind: s.d.kind, target, payload });
      }
    }
    await repo.addActionTokens(tokens);
    const gone = new Set<string>();
    let next = 0;
    const worker = async () => {
      for (let job = jobs[next++]; job; job = jobs[next++]) {
        if (gone.has(job.target.id)) continue;
        const outcome = await push(job.target, job.payload);
        if (outcome === 'gone') gone.add(job.target.id);
        else if (outcome === 'failed') log.warn({ kind: job.kind }, 'a reminder push failed');
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUSH_CONCURRENCY, jobs.length) }, worker));
    for (const id of gone) await repo.dropSubscription(id);
  }

  async function run(now: number): Promise<TickReport> {
    const report: TickReport = { sent: 0, late: 0, missed: 0, deliveries: 0 };
    const at = new Date(now).toISOString();
    // The window: since this instance's last tick; after a start, since any instance's last tick
    // (the server may have been down), at most a day back; on a new database, this minute only.
    let last = lastTick;
    if (last === undefined) {
      const stored = await repo.lastTick();
      last = stored === undefined ? now - MINUTE + OVERLAP_MS : Math.max(stored, now - CATCH_UP_MS);
    }
    const from = Math.min(last, now) - OVERLAP_MS;
    lastTick = now;
    await repo.recordTick(at);

    const dues = (await dueBetween(from, now)).sort((a, b) => a.dueAt - b.dueAt);
    const known = await repo.knownOccurrences(dues.map((d) => d.key));
    const fresh = dues.filter((d) => !known.has(d.key));
    // Snoozes waiting for their time.
    for (const p of await repo.pendingDue(at)) {
      const data = JSON.parse(p.data ?? '{}') as Partial<Omit<Due, 'when'>> & { when?: ReminderWhen | string };
      if (!p.user_id || !data.profileId) continue;
      const late = now - Date.parse(p.due_at) >= MINUTE;
      if (!(await repo.claimPending(p.key, late ? 'late' : 'sent', at))) continue;
      // Ten minutes on, the dose may have been logged, or the user may no longer see the person: then nothing is sent.
      if (data.doseId && (await repo.loggedDoses([data.doseId])).has(data.doseId)) continue;
      if (!(await repo.seesPerson(p.user_id, data.profileId, at))) continue;
      const d: Due = {
        key: p.key,
        kind: 'snooze',
        dueAt: Date.parse(p.due_at),
        profileId: data.profileId,
        ownerId: p.user_id,
        flag: 'dose_reminders',
        personName: data.personName ?? null,
        isSelf: data.isSelf ?? false,
        subject: data.subject ?? null,
        // A snooze written before issue 35 kept its time as words ("08:00").
        when: typeof data.when === 'object' ? data.when : { at: 'clock', time: data.when ?? '' },
        ...(data.doseId ? { doseId: data.doseId } : {}),
        onlyUser: p.user_id,
      };
      await deliver([{ d, users: [p.user_id], late }], now, report, await recipientsInfo([p.user_id]));
      report[late ? 'late' : 'sent'] += 1;
    }
    if (fresh.length === 0) return report;
    const who = await recipients(fresh, now);
    const info = await recipientsInfo([...who.byKey.values()].flat());
    const rows: OccurrenceRow[] = fresh.map((d) => {
      const lateBy = now - d.dueAt;
      const state = lateBy >= HOUR ? 'missed' : lateBy >= MINUTE ? 'late' : 'sent';
      return { key: d.key, kind: d.kind, due_at: new Date(d.dueAt).toISOString(), state };
    });
    // One insert per slice: the keys this instance wrote are the reminders it delivers.
    const claimed = await repo.claimMany(rows, at);
    const items: { d: Due; users: readonly string[]; late: boolean }[] = [];
    fresh.forEach((d, i) => {
      const row = rows[i];
      if (!row || !claimed.has(d.key)) return;
      if (row.state === 'missed') {
        // Logged, not sent: an hour late is no reminder any more.
        log.info({ kind: d.kind, due_at: row.due_at }, 'a reminder was due while the server was down; not sent');
        report.missed += 1;
        return;
      }
      const users = who.byKey.get(d.key) ?? [];
      if (users.length === 0) return;
      items.push({ d, users, late: row.state === 'late' });
      report[row.state === 'late' ? 'late' : 'sent'] += 1;
    });
    await deliver(items, now, report, info, who.viewOnly);
    return report;
  }

  let pruned = 0;

  /**
   * Waits until no tick runs. Each wait is on the tick seen, and `running` is cleared by that tick's
   * own settlement: a loop that awaited an already settled promise again and again would be a chain
   * of microtasks that never yields to I/O — and a tick waiting on its database would never finish.
   */
  async function settled(): Promise<void> {
    while (running) {
      const current = running;
      await current.catch(() => undefined);
      if (running === current) running = undefined;
    }
  }

  /** Delivers what is due at `now` (tests and the timer call it); one tick at a time per instance. */
  async function tick(now: Date = clock()): Promise<TickReport> {
    await settled();
    // The whole tick, its pruning included, is what `running` stands for until it settles.
    const current = (async () => {
      const report = await run(now.getTime());
      if (now.getTime() - pruned > HOUR) {
        pruned = now.getTime();
        await repo.pruneOccurrences(new Date(now.getTime() - KEEP_MS).toISOString());
      }
      return report;
    })();
    running = current;
    try {
      return await current;
    } finally {
      if (running === current) running = undefined;
    }
  }

  return {
    tick,

    /** Resolves when no tick is running (the app's close waits for it). */
    async idle(): Promise<void> {
      await settled();
    },

    /** One more reminder of a dose for one user, `minutes` from now (a push's Snooze). */
    async snooze(input: { userId: string; profileId: string; doseId: string; medicationId: string; minutes: number; id: string }) {
      const names = await repo.doseNames(input.medicationId);
      const zone = await zones.ofPerson(input.profileId);
      const due = clock().getTime() + input.minutes * MINUTE;
      const data: Partial<Due> = {
        profileId: input.profileId,
        personName: names?.person_name ?? null,
        isSelf: names?.person_is_self === 1 && names.owner_id === input.userId,
        subject: names?.medication_name ?? null,
        when: { at: 'clock', time: localMinute(due, zone).slice(11, 16) },
        doseId: input.doseId,
      };
      await repo.addPending({
        key: `snooze:${input.id}`,
        kind: 'snooze',
        due_at: new Date(due).toISOString(),
        state: 'pending',
        user_id: input.userId,
        data: JSON.stringify(data),
      });
    },

    /** A timer at each minute's start (unref'd; nothing runs between minutes); returns the stop function. */
    start(onError: (error: unknown) => void): () => void {
      let timer: NodeJS.Timeout | undefined;
      let stopped = false;
      const next = () => {
        if (stopped) return;
        timer = setTimeout(() => void tick().catch(onError).finally(next), MINUTE - (clock().getTime() % MINUTE) + 50);
        timer.unref();
      };
      void tick().catch(onError).finally(next);
      return () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      };
    },
  };
}
