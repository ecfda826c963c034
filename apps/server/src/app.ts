import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { registerErrorHandling } from './plugins/errors';
import { frameworkErrorHandler, registerSecurity, securityHeaders } from './plugins/security';
import {
  knownBrowserCookies,
  pendingLoginCookies,
  registerSession,
  requireUser,
  sessionCookies,
  ssoBrowserCookies,
} from './plugins/session';
import { lazyChildLoggerFactory, loggerOptions } from './plugins/logging';
import { serveWebApp } from './plugins/web-app';
import { registerOpenApi } from './plugins/openapi';
import { createSessionRepository } from './common/session.repository';
import type { AccountDeletionHook } from './features/auth/auth.service';
import { createAuthService } from './features/auth/auth.service';
import { createPasswordResetService } from './features/auth/password-reset.service';
import { createEmailVerificationService } from './features/auth/email-verification.service';
import { createMailer } from './common/mailer';
import type { Mailer } from './common/mailer';
import { authRoutes } from './features/auth/auth.routes';
import { createMfaService, PENDING_LOGIN_MS } from './features/auth/mfa.service';
import { mfaRoutes } from './features/auth/mfa.routes';
import { createPasskeyService, relyingPartyOf } from './features/auth/passkeys.service';
import { passkeyRoutes } from './features/auth/passkeys.routes';
import { createKnownBrowsers } from './features/auth/known-browsers.service';
import { createSignedIn } from './features/auth/sign-in';
import { createOidcService, SSO_REQUEST_MS } from './features/auth/oidc.service';
import { oidcRoutes } from './features/auth/oidc.routes';
import { createSessionsService } from './features/auth/sessions.service';
import { sessionsRoutes } from './features/auth/sessions.routes';
import { healthRoutes } from './features/health/health.routes';
import { clientConfigRoutes } from './features/config/config.routes';
import { createProfileService } from './features/profiles/profile.service';
import { ownProfileRoutes } from './features/profiles/own-profile.routes';
import { familyRoutes } from './features/profiles/family.routes';
import { createEmergencyService } from './features/emergency/emergency.service';
import { createEmergencyMail } from './features/notifications/emergency-mail';
import { scheduleAccessDigests } from './features/emergency/access-alerts';
import { emergencyPublicRoutes, qrRoutes } from './features/emergency/emergency.routes';
import { emergencyPageRoutes, loadEmergencyPage } from './features/emergency/emergency-page';
import type { EssentialsFor } from './features/emergency-cards/emergency-cards.service';
import { createEmergencyCardService } from './features/emergency-cards/emergency-cards.service';
import { emergencyCardRoutes } from './features/emergency-cards/emergency-cards.routes';
import { createNotificationService } from './features/notifications/notification.service';
import { notificationRoutes } from './features/notifications/notifications.routes';
import type { NotificationBus } from './common/notification-bus';
import { attachNotificationBus, createLocalNotificationBus, createPostgresNotificationBus } from './common/notification-bus';
import { createAppointmentService } from './features/appointments/appointment.service';
import { appointmentRoutes } from './features/appointments/appointments.routes';
import type { Storage } from './storage/create-storage';
import { createStorage } from './storage/create-storage';
import { createMedicalFileService } from './features/files/medical-file.service';
import { createFileShareService } from './features/files/file-share.service';
import { fileRoutes, sharedFileRoutes } from './features/files/files.routes';
import { createFileSuggestionService } from './features/files/file-suggestion.service';
import { fileSuggestionRoutes } from './features/files/file-suggestion.routes';
import { createExportService } from './features/export/export.service';
import { exportRoutes } from './features/export/export.routes';
import type { ImportLimits } from './features/import/import-limits';
import { DEFAULT_IMPORT_LIMITS } from './features/import/import-limits';
import { createImportService } from './features/import/import.service';
import { importRoutes } from './features/import/import.routes';
import { createShlService } from './features/shl/shl.service';
import { shlOwnerRoutes, shlPublicRoutes } from './features/shl/shl.routes';
import { createPersonAccess } from './common/person-access';
import { createPeopleService } from './features/people/people.service';
import { invitationPublicRoutes, peopleRoutes } from './features/people/people.routes';
import { createClinicalService } from './features/clinical/clinical.service';
import { clinicalRoutes } from './features/clinical/clinical.routes';
import { createAllergiesService } from './features/allergies/allergies.service';
import { allergyRoutes } from './features/allergies/allergies.routes';
import { careRoutes } from './features/care/care.routes';
import { createDoseService } from './features/care/dose.service';
import { createScheduleService } from './features/care/schedule.service';
import { createPreferencesService } from './features/preferences/preferences.service';
import { preferencesRoutes } from './features/preferences/preferences.routes';
import { createSearchService } from './features/search/search.service';
import { searchRoutes } from './features/search/search.routes';
import { createCalendarService } from './features/calendar/calendar.service';
import { calendarFeedRoutes, calendarPublicRoutes } from './features/calendar/calendar.routes';
import { createProcessDir } from './storage/process-dir';
import { ORPHAN_GRACE_MS } from './features/files/file-orphans';
import type { RemindersDeps } from './features/reminders/reminders';
import { createReminders } from './features/reminders/reminders';
import { pushActionRoutes, reminderRoutes } from './features/reminders/reminders.routes';
import type { TextJobsOptions, TextService } from './features/text/text.service';
import { textRoutes } from './features/text/text.routes';
import { createLabsService } from './features/labs/labs.service';
import { labsRoutes } from './features/labs/labs.routes';
import { createTextJobs } from './text-jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Issue 33: the text runner; tests (`text: { timer: false }`) drive it with runOnce/drain. */
    textJobs: TextService;
  }
}

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  /** Built web app to serve; defaults to apps/web/dist when it exists. */
  webRoot?: string | null;
  logger?: FastifyServerOptions['logger'];
  /** Blob store and master key; built from config (DATA_DIR or S3) when omitted. */
  storage?: Storage;
  /** Caps on what an import may hold (features/import/import-limits.ts); tests lower them. */
  importLimits?: Partial<ImportLimits>;
  /** The email transport; built from config (SMTP_URL) when omitted. Tests hand in theirs to wait on its `settled()`. */
  mailer?: Mailer;
  /** The reminder scheduler's clock, timer and push agent (features/reminders/reminders.ts); tests drive its `tick`. */
  reminders?: RemindersDeps;
  /** The clock that decides what is upcoming, due or missed (issue 32); tests drive it. */
  now?: () => Date;
  /** Issue 33: the text runner's timer, poll, lease and limits; tests pass `{ timer: false }` and call `app.textJobs.drain()`. */
  text?: TextJobsOptions;
}

const defaultWebRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the whole app: plugins, then the services, then one flat list of routes (STYLE: medplum, fastify/demo). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  // helmet runs once: the same headers go on answers and on URLs the router refuses before any hook.
  const headers = securityHeaders(config);
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    childLoggerFactory: lazyChildLoggerFactory,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    frameworkErrors: frameworkErrorHandler(headers),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await registerSecurity(app, config, headers);
  await registerSession(app);
  // The API reference (docs/decisions/0040): registered before any route, so that each one is in it.
  await registerOpenApi(app, config, headers);

  const s = await buildServices(app, deps);
  const requireUser = s.authenticated;

  await app.register(healthRoutes, { db: s.db });
  await app.register(authRoutes, {
    auth: s.auth,
    passwordResets: s.passwordResets,
    emailVerification: s.emailVerification,
    sessions: s.sessions,
    cookies: s.cookies,
    pendingCookies: s.pendingCookies,
    requireUser,
    signedIn: s.signedIn,
  });
  // Second factors (DESIGN §5): TOTP and recovery codes.
  await app.register(mfaRoutes, { mfa: s.mfa, requireUser });
  await app.register(passkeyRoutes, {
    passkeys: s.passkeys,
    mfa: s.mfa,
    auth: s.auth,
    pendingCookies: s.pendingCookies,
    signedIn: s.signedIn,
    requireUser,
  });
  // Single sign-on with OpenID Connect when OIDC_* are set (docs/decisions/0029); 404 otherwise.
  await app.register(oidcRoutes, {
    oidc: s.oidc,
    sessions: s.sessions,
    cookies: s.cookies,
    pendingCookies: s.pendingCookies,
    browserCookies: ssoBrowserCookies(config, SSO_REQUEST_MS),
    signedIn: s.signedIn,
  });
  await app.register(sessionsRoutes, { sessions: s.sessionList, cookies: s.cookies, requireUser });
  // Own profile and family members: one service on two route sets (DESIGN §4).
  // Every route that touches a person's data asks the one access function (DESIGN §4, §11).
  await app.register(ownProfileRoutes, { profiles: s.profiles, access: s.access, requireUser });
  await app.register(familyRoutes, { profiles: s.profiles, access: s.access, requireUser });
  await app.register(qrRoutes, { emergency: s.emergency, access: s.access, requireUser });
  await app.register(emergencyPublicRoutes, { emergency: s.emergency });
  // DESIGN §7: the emergency page's own server-rendered entry point, when the web app is built.
  if (s.emergencyPage) await app.register(emergencyPageRoutes, { emergency: s.emergency, page: s.emergencyPage });
  await app.register(emergencyCardRoutes, { cards: s.cards, access: s.access, requireUser });
  await app.register(notificationRoutes, {
    notifications: s.notifications,
    bus: s.bus,
    requireUser,
    sessionLive: (id) => s.sessions.isLive(id),
  });
  await app.register(appointmentRoutes, { appointments: s.appointments, requireUser });
  await app.register(fileRoutes, { files: s.files, shares: s.shares, requireUser, maxUploadBytes: config.maxUploadBytes });
  await app.register(sharedFileRoutes, { shares: s.shares });
  // Issue 33: what a file's text suggests for its record, applied or dismissed by an editor (decision 0049).
  await app.register(fileSuggestionRoutes, { suggestions: s.suggestions, requireUser });
  await app.register(clientConfigRoutes, {
    maxUploadBytes: config.maxUploadBytes,
    signupMode: config.signupMode,
    passkeys: s.passkeys.available,
    ssoName: config.oidc?.name ?? null,
    vapidPublicKey: s.reminders.vapidPublicKey,
  });
  await app.register(exportRoutes, { exports: s.exports, requireUser });
  await app.register(importRoutes, { imports: s.imports, requireUser, maxImportBytes: s.importLimits.maxImportBytes });
  await app.register(shlOwnerRoutes, { shl: s.shl, access: s.access, requireUser });
  await app.register(shlPublicRoutes, { shl: s.shl });
  // People and sharing (DESIGN §11): the people API, the shares, and the public invitation preview.
  await app.register(peopleRoutes, { people: s.people, requireUser });
  await app.register(invitationPublicRoutes, { people: s.people });
  // Clinical data per person (DESIGN §12), under the same access rules.
  await app.register(clinicalRoutes, { clinical: s.clinical, requireUser });
  // Allergies as entries (issue 34, docs/decisions/0053), under the same rules.
  await app.register(allergyRoutes, { allergies: s.allergies, requireUser });
  // Reminders (issue 32, DESIGN §13): settings per person, push subscriptions, the push buttons.
  await app.register(reminderRoutes, { settings: s.reminders.settings, subscriptions: s.reminders.subscriptions, requireUser });
  await app.register(pushActionRoutes, { actions: s.reminders.actions });
  // Medication schedules, the dose log and adherence (issue 32, DESIGN §13), under the same rules.
  await app.register(careRoutes, { schedules: s.schedules, doses: s.doses, requireUser });
  // Issue 32: the account's time zone and reminder channels; private calendar feeds (decision 0045).
  await app.register(preferencesRoutes, { preferences: s.preferences, requireUser });
  // One search over everything a reader may see (issue 33, docs/decisions/0048).
  await app.register(searchRoutes, { search: s.search, requireUser });
  await app.register(calendarFeedRoutes, { calendar: s.calendar, requireUser });
  await app.register(calendarPublicRoutes, { calendar: s.calendar });
  // Issue 33: a file's text for whoever may read the file; the runner reads files in the background.
  await app.register(textRoutes, { text: s.text, requireUser });
  app.decorate('textJobs', s.text);
  app.addHook('onReady', async () => s.text.start());
  // Before the database and the blob store go: the jobs in progress are handed back.
  app.addHook('preClose', () => s.text.stop());
  // Issue 34 (decision 0052): lab values found in a file's text, accepted as lab results; the table of tests.
  await app.register(labsRoutes, { labs: s.labs, requireUser });

  await serveWebApp(app, s.webRoot);
  return app;
}

/**
 * Every service the routes use, built once from the configuration. What must be let go when the
 * app closes (mail transport, notification bus, blob store, import spool) is hooked to onClose here.
 */
async function buildServices(app: FastifyInstance, deps: AppDeps) {
  const { config, database } = deps;
  const { db } = database;
  const sessions = createSessionRepository(db, { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs });
  const cookies = sessionCookies(config);
  const accountDeletionHooks: AccountDeletionHook[] = [];
  // Files: encrypted blobs (DESIGN §6); its master key also seals TOTP secrets.
  const storage = deps.storage ?? (await createStorage(config));
  // Graceful exit (DESIGN §6): this process's spool folders go; in-flight requests are done by now.
  app.addHook('onClose', () => storage.blobs.close());
  const passkeys = createPasskeyService({ db, relyingParty: relyingPartyOf(config.publicUrl) });
  const mfa = createMfaService({ db, masterKey: storage.masterKey, passkeys });
  const profiles = createProfileService({ db });
  // DESIGN §4, §11: the one function that decides what a user may do with a person's data.
  const access = createPersonAccess(db);
  // DESIGN §1: email only with SMTP_URL set; start-up says once when it is off. Emails still
  // queued go out before the app closes.
  const mailer = deps.mailer ?? createMailer({ mail: config.mail, log: app.log });
  if (mailer) {
    app.addHook('onClose', async () => {
      await mailer.settled();
      mailer.close();
    });
  }
  // Sharing a person (DESIGN §11); an invitation with an email goes by email when SMTP is set.
  const people = createPeopleService({ db, access, profiles, publicUrl: config.publicUrl, mailer });
  // What an account going had handed on ends with its shares (docs/decisions/0032).
  accountDeletionHooks.push((userId) => people.beforeAccountDeletion(userId));
  // An email is proven by a link (DESIGN §5, docs/decisions/0030).
  const emailVerification = createEmailVerificationService({ db, mailer, publicUrl: config.publicUrl });
  const auth = createAuthService({
    db,
    sessions,
    mfa,
    passkeys,
    accountDeletionHooks,
    signupLimitPerHour: config.signupLimitPerHour,
    signupMode: config.signupMode,
    invitations: people.signupInvitations,
    emailVerification,
  });

  const mail = createEmergencyMail({ db, mailer });
  // Issue 30: coalesced emergency-view emails go out once their 15 minutes are over.
  if (mail) {
    const stopDigests = scheduleAccessDigests({ db, mail }, (error) => app.log.error({ err: error }, 'emergency access digests failed'));
    app.addHook('onClose', async () => stopDigests());
  }
  const passwordResets = createPasswordResetService({ db, mailer, publicUrl: config.publicUrl });
  // Every way of signing in ends here: an email when the browser is new to the account (decision 0028).
  const knownBrowsers = createKnownBrowsers({ db, mailer, publicUrl: config.publicUrl });
  const signedIn = createSignedIn({ cookies, browserCookies: knownBrowserCookies(config), knownBrowsers, sessions });
  const emergency = createEmergencyService({ db, publicUrl: config.publicUrl, mail, access });
  const webRoot = deps.webRoot === undefined ? defaultWebRoot : deps.webRoot;
  const emergencyPage = await loadEmergencyPage(webRoot);
  // Wallet card, QR image and lock-screen image per code (DESIGN §7). The essentials of a code
  // whose owner opted in (`essentials_without_pin`) print on the card and the lock screen.
  const essentialsFor: EssentialsFor = (ownerId, profileId) => emergency.essentialsFor(ownerId, profileId);
  const cards = createEmergencyCardService({ db, publicUrl: config.publicUrl, essentialsFor });

  // DESIGN §7, §10: new notifications reach open pages (LISTEN/NOTIFY across instances on PostgreSQL).
  const bus: NotificationBus =
    database.dialect === 'postgres' && database.url
      ? await createPostgresNotificationBus({ url: database.url, db, log: app.log })
      : createLocalNotificationBus();
  const detachBus = attachNotificationBus(db, bus);
  app.addHook('onClose', async () => {
    detachBus();
    await bus.close();
  });

  // An account's blobs go once its rows are gone.
  const quota = { bytes: config.storageQuotaBytes, mb: config.storageQuotaMb };
  // Issue 33: the text runner (its hooks are in text-jobs.ts, shared with `npm run worker`).
  const text = createTextJobs(
    {
      db,
      access,
      // Called by the runner only, once the files service below exists.
      readFile: (id) => files.readForText(id),
      log: app.log,
      workers: config.textWorkers,
      ...(deps.now ? { now: deps.now } : {}),
    },
    deps.text,
  );
  const files = createMedicalFileService({
    db,
    ...storage,
    maxUploadBytes: config.maxUploadBytes,
    maxUploadMb: config.maxUploadMb,
    quota,
    log: app.log,
    access,
    onStored: () => text.nudge(),
  });
  accountDeletionHooks.push((userId) => files.beforeAccountDeletion(userId));

  const shares = createFileShareService({ db, files, access, publicUrl: config.publicUrl });
  // Issue 33 (decision 0049): its afterRead is a hook of the text extraction runner, run in the
  // transaction that stores a file's text.
  const suggestions = createFileSuggestionService({ db, access, ...(deps.now ? { now: deps.now } : {}) });

  // Export, import, FHIR and SMART Health Links (decision 0004).
  const importLimits: ImportLimits = {
    ...DEFAULT_IMPORT_LIMITS,
    // A FHIR Bundle must fit the largest file Kinchart keeps, base64-encoded (4/3) with room to spare.
    maxJsonBytes: Math.max(DEFAULT_IMPORT_LIMITS.maxJsonBytes, Math.ceil(config.maxUploadBytes * 1.4)),
    maxFileBytes: config.maxUploadBytes,
    ...deps.importLimits,
  };
  // The import spool is this process's own too: what a crashed process left goes now, and one
  // instance never removes another's spool in flight (DESIGN §6).
  const importSpool = createProcessDir(path.join(config.dataDir, 'import-spool'));
  void importSpool
    .sweepStale(new Date(Date.now() - ORPHAN_GRACE_MS))
    .catch((error: unknown) => app.log.warn({ err: error }, 'import spool sweep failed'));
  app.addHook('onClose', () => importSpool.remove());

  const oidc = config.oidc
    ? createOidcService({
        db,
        oidc: config.oidc,
        publicUrl: config.publicUrl,
        auth,
        sessions,
        signupMode: config.signupMode,
        signupLimitPerHour: config.signupLimitPerHour,
        emailVerification,
        log: app.log,
      })
    : undefined;

  const appointments = createAppointmentService({ db, access });
  // Reminders (issue 32, docs/decisions/0044): the scheduler ticks each minute; stopped on close.
  const clock = deps.now ? { now: deps.now } : {};
  const doses = createDoseService({ db, access, ...clock });
  const reminders = createReminders({
    db,
    config,
    access,
    mailer,
    log: app.log,
    ...clock,
    // A push's Taken logs the dose as the token's user, through the dose service (which checks their access again).
    logTaken: (actor, personId, doseId) => doses.log(actor, personId, doseId, { status: 'taken' }, 'POST /api/push-actions'),
    ...deps.reminders,
  });
  app.addHook('onClose', () => reminders.stop());

  return {
    db,
    sessions,
    cookies,
    oidc,
    reminders,
    pendingCookies: pendingLoginCookies(config, PENDING_LOGIN_MS),
    authenticated: requireUser(sessions, cookies),
    auth,
    mfa,
    passkeys,
    passwordResets,
    emailVerification,
    signedIn,
    sessionList: createSessionsService({ db, sessions }),
    profiles,
    emergency,
    emergencyPage,
    webRoot,
    cards,
    bus,
    notifications: createNotificationService({ db }),
    appointments,
    preferences: createPreferencesService({ db }),
    search: createSearchService({ db, access }),
    calendar: createCalendarService({ db, access, appointments, publicUrl: config.publicUrl }),
    files,
    shares,
    suggestions,
    exports: createExportService({ db, ...storage, log: app.log }),
    importLimits,
    imports: createImportService({ db, ...storage, log: app.log, spoolDir: importSpool.dir, limits: importLimits, quota, access }),
    // SMART Health Links: the passcode is the code's PIN, checked by the emergency service (one counter).
    shl: createShlService({ db, emergency, profiles, masterKey: storage.masterKey, publicUrl: config.publicUrl }),
    access,
    people,
    clinical: createClinicalService({ db, access }),
    allergies: createAllergiesService({ db, access }),
    schedules: createScheduleService({ db, access, ...clock }),
    doses,
    text,
    labs: createLabsService({ db, access }),
  };
}
