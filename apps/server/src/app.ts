import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { registerErrorHandling } from './plugins/errors';
import { frameworkErrorHandler, registerSecurity, securityHeaders } from './plugins/security';
import { registerSession, requireUser, sessionCookies } from './plugins/session';
import { lazyChildLoggerFactory, loggerOptions } from './plugins/logging';
import { createSessionRepository } from './features/auth/session.repository';
import type { AccountDeletionHook } from './features/auth/auth.service';
import { createAuthService } from './features/auth/auth.service';
import { authRoutes } from './features/auth/auth.routes';
import { healthRoutes } from './features/health/health.routes';
import { clientConfigRoutes } from './features/config/config.routes';
import { createProfileService } from './features/profiles/profile.service';
import { ownProfileRoutes } from './features/profiles/own-profile.routes';
import { familyRoutes } from './features/profiles/family.routes';
import { createEmergencyService } from './features/emergency/emergency.service';
import { createEmergencyMail } from './features/notifications/emergency-mail';
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
import { createExportService } from './features/export/export.service';
import { exportRoutes } from './features/export/export.routes';
import type { ImportLimits } from './features/import/import-limits';
import { DEFAULT_IMPORT_LIMITS } from './features/import/import-limits';
import { createImportService } from './features/import/import.service';
import { importRoutes } from './features/import/import.routes';
import { createShlService } from './features/shl/shl.service';
import { shlOwnerRoutes, shlPublicRoutes } from './features/shl/shl.routes';
import { createProcessDir } from './storage/process-dir';
import { ORPHAN_GRACE_MS } from './features/files/file-orphans';

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
}

const defaultWebRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the whole app: plugins first, then one readable list of feature routes (STYLE: medplum, fastify/demo). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const { db } = database;
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

  const sessions = createSessionRepository(db, { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs });
  const cookies = sessionCookies(config);
  const authenticated = requireUser(sessions, cookies);
  const accountDeletionHooks: AccountDeletionHook[] = [];

  // Feature routes.
  await app.register(healthRoutes, { db });
  await app.register(authRoutes, {
    auth: createAuthService({ db, sessions, accountDeletionHooks, signupLimitPerHour: config.signupLimitPerHour }),
    sessions,
    cookies,
    requireUser: authenticated,
  });
  // Profiles: own profile and family members are one service on two route sets (DESIGN §4).
  const profiles = createProfileService({ db });
  await app.register(ownProfileRoutes, { profiles, requireUser: authenticated });
  await app.register(familyRoutes, { profiles, requireUser: authenticated });
  // DESIGN §1: email only with SMTP_URL set; start-up says once when it is off.
  const mail = createEmergencyMail({ db, mail: config.mail, log: app.log });
  if (mail) app.addHook('onClose', async () => mail.close());
  const emergency = createEmergencyService({ db, publicUrl: config.publicUrl, mail });
  await app.register(qrRoutes, { emergency, requireUser: authenticated });
  await app.register(emergencyPublicRoutes, { emergency });
  // DESIGN §7: the emergency page's own server-rendered entry point, when the web app is built.
  const webRoot = deps.webRoot === undefined ? defaultWebRoot : deps.webRoot;
  const emergencyPage = await loadEmergencyPage(webRoot);
  if (emergencyPage) await app.register(emergencyPageRoutes, { emergency, page: emergencyPage });
  // Wallet card, QR image and lock-screen image per code (DESIGN §7). The essentials of a code
  // whose owner opted in (`essentials_without_pin`) print on the card and the lock screen.
  const essentialsFor: EssentialsFor = (userId, target) => emergency.essentialsForOwner(userId, target);
  await app.register(emergencyCardRoutes, {
    cards: createEmergencyCardService({ db, publicUrl: config.publicUrl, essentialsFor }),
    requireUser: authenticated,
  });
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
  await app.register(notificationRoutes, {
    notifications: createNotificationService({ db }),
    bus,
    requireUser: authenticated,
    sessionLive: (id) => sessions.isLive(id),
  });
  await app.register(appointmentRoutes, { appointments: createAppointmentService({ db }), requireUser: authenticated });
  // Files: encrypted blobs (DESIGN §6); an account's blobs go once its rows are gone.
  const storage = deps.storage ?? (await createStorage(config));
  // Graceful exit (DESIGN §6): this process's spool folders go; in-flight requests are done by now.
  app.addHook('onClose', () => storage.blobs.close());
  const quota = { bytes: config.storageQuotaBytes, mb: config.storageQuotaMb };
  const files = createMedicalFileService({ db, ...storage, maxUploadBytes: config.maxUploadBytes, maxUploadMb: config.maxUploadMb, quota, log: app.log });
  accountDeletionHooks.push((userId) => files.beforeAccountDeletion(userId));
  const shares = createFileShareService({ db, files, publicUrl: config.publicUrl });
  await app.register(fileRoutes, { files, shares, requireUser: authenticated, maxUploadBytes: config.maxUploadBytes });
  await app.register(clientConfigRoutes, { maxUploadBytes: config.maxUploadBytes, requireUser: authenticated });
  await app.register(sharedFileRoutes, { shares });
  // Export, import, FHIR and SMART Health Links (decision 0004).
  await app.register(exportRoutes, { exports: createExportService({ db, ...storage, log: app.log }), requireUser: authenticated });
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
  void importSpool.sweepStale(new Date(Date.now() - ORPHAN_GRACE_MS)).catch((error: unknown) => app.log.warn({ err: error }, 'import spool sweep failed'));
  app.addHook('onClose', () => importSpool.remove());
  const imports = createImportService({ db, ...storage, log: app.log, spoolDir: importSpool.dir, limits: importLimits, quota });
  await app.register(importRoutes, { imports, requireUser: authenticated, maxImportBytes: importLimits.maxImportBytes });
  // SMART Health Links: the passcode is the code's PIN, checked by the emergency service (one counter).
  const shl = createShlService({ db, emergency, profiles, masterKey: storage.masterKey, publicUrl: config.publicUrl });
  await app.register(shlOwnerRoutes, { shl, requireUser: authenticated });
  await app.register(shlPublicRoutes, { shl });

  await serveWebApp(app, webRoot);
  return app;
}

/** Files of the web build whose names do not change between builds (see serveWebApp). */
const NEVER_STALE = new Set(['sw.js', 'manifest.webmanifest']);

async function serveWebApp(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const indexFile = webRoot ? path.join(webRoot, 'index.html') : null;
  const hasWeb = !!indexFile && fs.existsSync(indexFile);
  if (hasWeb && webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies of its text files (apps/web/scripts/precompress.mjs):
      // send the one the browser accepts, the file itself otherwise (DESIGN §9, first load on slow 4G).
      preCompressed: true,
      // Vite fingerprints assets: cache them for a year; index.html is never cached. The service
      // worker and the web app manifest keep their names from build to build, so the browser asks
      // again every time (a stale sw.js would hold a device on an old build).
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) void reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        else if (NEVER_STALE.has(path.relative(webRoot, filePath))) void reply.header('Cache-Control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // A missing asset (/assets/x.js, /logo.png) is a 404, not the app's HTML: a browser would
    // otherwise try to run HTML as a script. Client routes have no file extension.
    const isAsset = pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname.split('/').pop() ?? '');
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && !isAsset;
    if (isPage && hasWeb) {
      // Client-side routes (/dashboard, /emergency/{id}, …) all start from index.html. It names
      // the current build's assets, so it is revalidated every time: without cacheControl: false,
      // send would replace this header with its own `public, max-age=0`.
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html', { cacheControl: false });
    }
    return reply.code(404).send({ message: 'Not found' });
  });
}
