import { expect } from 'vitest';
import type { Db } from '../src/db/database';

// Shared by the FHIR import tests: what a person's clinical items are (ids and stamps taken out),
// and the import report read by resource type (decision 0022).

type Json = Record<string, unknown>;

export interface ReportRow {
  resource_type: string;
  imported: number;
  merged: number;
  already_present: number;
  dropped: { reason: string; count: number }[];
  parts_left_out: { reason: string; count: number }[];
}

const CLINICAL_TABLES = ['immunizations', 'lab_results', 'conditions', 'procedures'] as const;

/** Every clinical item of one account, per table, in a stable order, without ids and stamps. */
export async function clinicalOf(db: Db, userId: string): Promise<Record<(typeof CLINICAL_TABLES)[number], Json[]>> {
  const out = {} as Record<(typeof CLINICAL_TABLES)[number], Json[]>;
  for (const table of CLINICAL_TABLES) {
    const rows = (await db
      .selectFrom(table as 'immunizations')
      .selectAll()
      .where('user_id', '=', userId)
      .execute()) as unknown as Json[];
    out[table] = rows
      .map(({ id: _id, user_id: _u, profile_id: _p, created_at: _c, updated_at: _up, ...rest }) => ({
        ...rest,
        ...(rest.value !== undefined && rest.value !== null ? { value: Number(rest.value) } : {}),
        ...(rest.reference_low !== undefined && rest.reference_low !== null ? { reference_low: Number(rest.reference_low) } : {}),
        ...(rest.reference_high !== undefined && rest.reference_high !== null ? { reference_high: Number(rest.reference_high) } : {}),
      }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

/** The report's row for one resource type (a failed expectation when there is none). */
export function rowOf(body: { report: ReportRow[] }, type: string): ReportRow {
  const row = body.report.find((r) => r.resource_type === type);
  expect(row, `report row for ${type}`).toBeDefined();
  return row!;
}

/** Every entry of the bundle is counted exactly once, under its own resource type. */
export function expectReportAddsUp(body: { report: ReportRow[] }, bundle: { entry?: { resource?: { resourceType?: unknown } }[] }): void {
  const expected = new Map<string, number>();
  for (const e of bundle.entry ?? []) {
    const type = typeof e.resource?.resourceType === 'string' ? e.resource.resourceType : '(unknown)';
    expected.set(type, (expected.get(type) ?? 0) + 1);
  }
  const counted = new Map(
    body.report.map((r) => [r.resource_type, r.imported + r.merged + r.already_present + r.dropped.reduce((n, d) => n + d.count, 0)]),
  );
  expect(counted).toEqual(expected);
}

/** The report as compact numbers per type: `{ Observation: [imported, merged, already_present, dropped] }`. */
export function tallyOf(body: { report: ReportRow[] }): Record<string, [number, number, number, number]> {
  return Object.fromEntries(
    body.report.map((r) => [r.resource_type, [r.imported, r.merged, r.already_present, r.dropped.reduce((n, d) => n + d.count, 0)]]),
  );
}
