import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { listenOn, notifyOn } from './notification-bus.repository';

// DESIGN §7 and §10: a new notification reaches its owner's open pages within 2 s. On SQLite (one
// process) the bus is an EventEmitter; on PostgreSQL every instance LISTENs on one channel and a
// NOTIFY carries only the user id and the notification id — never the notification's text — so each
// instance loads the row itself and pushes it to that user's open streams.

export const NOTIFY_CHANNEL = 'kinchart_notifications';

export type NotificationListener = (notificationId: string) => void;

export interface NotificationBus {
  /** Called after the row is committed. Never throws. */
  publish(userId: string, notificationId: string): void;
  /** Listens for one user's new notifications; returns the unsubscribe function. */
  subscribe(userId: string, listener: NotificationListener): () => void;
  close(): Promise<void>;
}

function localEmitter() {
  const emitter = new EventEmitter();
  // One listener per open stream: many tabs must not look like a leak.
  emitter.setMaxListeners(0);
  return {
    emit: (userId: string, notificationId: string) => void emitter.emit(userId, notificationId),
    subscribe: (userId: string, listener: NotificationListener) => {
      emitter.on(userId, listener);
      return () => void emitter.off(userId, listener);
    },
  };
}

/** One process (SQLite): publish is a local event. */
export function createLocalNotificationBus(): NotificationBus {
  const local = localEmitter();
  return { publish: local.emit, subscribe: local.subscribe, close: async () => {} };
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * PostgreSQL: a dedicated client LISTENs (reconnecting after a failure); publish is a NOTIFY through
 * the pool. An instance hears its own NOTIFY too, so local streams are served by the same path.
 */
export async function createPostgresNotificationBus(options: { url: string; db: Db; log: FastifyBaseLogger }): Promise<NotificationBus> {
  const local = localEmitter();
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
    try {
      const { u, n } = JSON.parse(message.payload) as { u?: unknown; n?: unknown };
      if (typeof u === 'string' && typeof n === 'string' && ID.test(u) && ID.test(n)) local.emit(u, n);
    } catch {
      // Not ours: ignore.
    }
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: options.url });
    c.on('notification', onNotification);
    c.on('error', (error) => {
      options.log.warn({ err: error }, 'notification listener lost its connection');
      lost(c);
    });
    c.on('end', () => lost(c));
    await c.connect();
    await listenOn(c, NOTIFY_CHANNEL);
    if (closed) await c.end().catch(() => {});
    else client = c;
  }

  /** The listening connection went away: listen again, backing off while the database is away. */
  function lost(c: pg.Client) {
    if (closed || client !== c) return;
    client = undefined;
    c.removeAllListeners('notification');
    void c.end().catch(() => {});
    reconnect(1000);
  }

  function reconnect(delayMs: number) {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((error: unknown) => {
        options.log.warn({ err: error }, 'notification listener could not reconnect');
        reconnect(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
    retry.unref();
  }

  await connect();

  return {
    publish(userId, notificationId) {
      const payload = JSON.stringify({ u: userId, n: notificationId });
      void notifyOn(options.db, NOTIFY_CHANNEL, payload).catch((error: unknown) =>
        options.log.warn({ err: error }, 'notification publish failed'),
      );
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      if (c) await c.end().catch(() => {});
    },
  };
}

// The one insert path (addNotification) publishes through the bus attached to its database handle.
const buses = new WeakMap<Db, NotificationBus>();

/** Attaches `bus` to `db` for addNotification; returns the detach function. */
export function attachNotificationBus(db: Db, bus: NotificationBus): () => void {
  buses.set(db, bus);
  return () => {
    if (buses.get(db) === bus) buses.delete(db);
  };
}

/**
 * Publishes after commit: addNotification runs outside transactions, so its insert is committed
 * when this runs. A caller inside a transaction holds a different handle and publishes nothing.
 */
export function publishNotification(db: Db, userId: string, notificationId: string): void {
  buses.get(db)?.publish(userId, notificationId);
}
