import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';

// The e2e server's own SQLite database (DATA_DIR/kinchart.db, e2e/run.mjs passes DATA_DIR as
// E2E_DATA_DIR). Journeys change it only to stand in for the passing of time, as the API tests do;
// the product has no test-only door for it.

function databaseFile(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the browser tests with `npm run test:e2e` (e2e/run.mjs).');
  return path.join(dir, 'kinchart.db');
}

/** The sessions row key of the page's session: the SHA-256 of its cookie's token (DESIGN §5). */
async function sessionKey(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'sid' || c.name === '__Host-sid');
  if (!cookie) throw new Error('The page has no session cookie');
  return createHash('sha256').update(cookie.value).digest('hex');
}

/**
 * Moves the page's session's last password proof `minutes` into the past, as if that long had gone
 * by since it signed in (exporting and sharing need one within 10 minutes, DESIGN §5).
 */
export async function ageSessionAuthentication(page: Page, minutes: number): Promise<void> {
  const key = await sessionKey(page);
  const db = new Database(databaseFile());
  try {
    db.pragma('busy_timeout = 5000');
    const at = new Date(Date.now() - minutes * 60_000).toISOString();
    const { changes } = db.prepare('update sessions set authenticated_at = ? where id = ?').run(at, key);
    if (changes !== 1) throw new Error("The page's session is not in the database");
  } finally {
    db.close();
  }
}
