import type SQLite from 'better-sqlite3';

/*
 * The SQL the backup and restore commands run on a SQLite file directly (a snapshot, a backup's
 * database, or the live file): they work on files, beside any running server, so they speak
 * better-sqlite3 rather than the app's Kysely instance.
 */

/** A file record as the operations commands need it: where its blob is and how its key is wrapped. */
export interface FileRow {
  id: string;
  user_id: string;
  storage_key: string;
  wrapped_key: string;
}

/** SQLite's own check; 'ok' when the file is sound. */
export function integrityCheck(db: SQLite.Database): string {
  return String(db.pragma('integrity_check', { simple: true }));
}

export function fileRows(db: SQLite.Database): FileRow[] {
  return db.prepare('SELECT id, user_id, storage_key, wrapped_key FROM medical_files ORDER BY id').all() as FileRow[];
}

export function hasFileRow(db: SQLite.Database, id: string): boolean {
  return db.prepare('SELECT 1 FROM medical_files WHERE id = ?').get(id) !== undefined;
}

/** Removes these file records in one transaction. */
export function deleteFileRows(db: SQLite.Database, ids: string[]): void {
  const remove = db.prepare('DELETE FROM medical_files WHERE id = ?');
  db.transaction((all: string[]) => all.forEach((id) => remove.run(id)))(ids);
}
