import type { Agent } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Mailer } from '../../common/mailer';
import type { PersonAccessService } from '../../common/person-access';
import { pushEndpointAllowed, createPushSubscriptionService } from './push-subscriptions.service';
import { createPushSender, vapidSubject } from './push-sender';
import type { LogTaken } from './push-actions.service';
import { createPushActionService } from './push-actions.service';
import { createReminderSettingsService } from './reminder-settings.service';
import { createReminderRepository } from './reminders.repository';
import type { ReminderScheduler } from './scheduler';
import { createReminderScheduler } from './scheduler';
import { loadVapidKeys } from './vapid-keys';

// The reminders feature's composition (issue 32): VAPID keys, the push sender, the services and the
// scheduler, whose timer runs at each minute unless the caller (a test) drives `tick` itself.

export interface RemindersDeps {
  /** The scheduler's clock (tests). */
  now?: () => Date;
  /** false: no timer; the caller ticks (tests, the benchmark). */
  timer?: boolean;
  /** An https agent for push sends (a test's loopback push service with its own certificate). */
  pushAgent?: Agent;
  /** Handed the scheduler once it is made (tests and the benchmark call its `tick`). */
  onScheduler?: (scheduler: ReminderScheduler) => void;
}

export function createReminders(
  deps: {
    db: Db;
    config: Config;
    access: PersonAccessService;
    mailer: Mailer | undefined;
    log: FastifyBaseLogger;
    /** How a push's Taken logs the dose (the dose service of features/care). */
    logTaken: LogTaken;
  } & RemindersDeps,
) {
  const { db, config, access } = deps;
  const repo = createReminderRepository(db);
  const keys = loadVapidKeys(config.push, config.dataDir);
  const allowed = (endpoint: string) => pushEndpointAllowed(endpoint, config.push.allowedHosts);
  const push = createPushSender({
    keys,
    subject: vapidSubject(config.publicUrl, config.mail?.from),
    allowed,
    ...(deps.pushAgent ? { agent: deps.pushAgent } : {}),
  });
  const now = deps.now ?? (() => new Date());
  const scheduler = createReminderScheduler({ db, mailer: deps.mailer, push, publicUrl: config.publicUrl, log: deps.log, now });
  deps.onScheduler?.(scheduler);
  const stopTimer = deps.timer === false ? () => {} : scheduler.start((error) => deps.log.error({ err: error }, 'reminders failed'));
  return {
    vapidPublicKey: keys.publicKey,
    settings: createReminderSettingsService({ repo, access }),
    subscriptions: createPushSubscriptionService({ repo, allowedHosts: config.push.allowedHosts, push }),
    actions: createPushActionService({ repo, access, scheduler, logTaken: deps.logTaken, now }),
    async stop() {
      stopTimer();
      await scheduler.idle();
    },
  };
}
