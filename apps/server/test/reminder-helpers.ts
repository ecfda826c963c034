import pino from 'pino';
import type { TestApp } from './helpers';
import type { PushSender } from '../src/features/reminders/push-sender';
import { createReminderScheduler } from '../src/features/reminders/scheduler';

/** A reminder scheduler on the test app's database, driven by the test through `tick(now)` (no timer). */
export function testScheduler(t: TestApp, options: { push?: PushSender } = {}) {
  return createReminderScheduler({
    db: t.database.db,
    mailer: undefined,
    push: options.push,
    publicUrl: t.config.publicUrl,
    log: pino({ level: 'silent' }),
  });
}
