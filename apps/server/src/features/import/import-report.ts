import type { ImportReasonCount, ImportReportRow } from '@kinchart/shared/export';

// What became of each resource of a FHIR Bundle (DESIGN §12: "a malformed resource is skipped and
// reported"; decision 0022). Planning, merging and writing tell this tally what happened to the
// entry they worked on, by its index in the bundle; `finish` counts every entry exactly once per
// resource type and writes the older `skipped` lines from the same facts, so both say the same.

type Outcome = 'imported' | 'merged' | 'already_present';
const RANK: Record<Outcome, number> = { already_present: 1, merged: 2, imported: 3 };

/** The reason Kinchart gives for a resource type it does not read. */
export const NOT_IMPORTED = 'not imported by Kinchart';

interface Reason {
  reason: string;
  /** The `skipped` line's wording after the count, when it differs from "<type> <reason>". */
  line?: string | undefined;
}

export function createImportTally(types: readonly string[]) {
  const outcome: (Outcome | undefined)[] = types.map(() => undefined);
  /** Why each entry (or something of it) was left out, in the order said, each reason once. */
  const dropped: Reason[][] = types.map(() => []);
  /** helper entry → the entries that used it (a Medication → the statements that name it). */
  const usedBy = new Map<number, number[]>();
  /** Parts left out, per entry, in the order they were found. */
  const parts: { entry: number; reason: Reason }[] = [];

  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < types.length;

  /** The entry's final outcome, or undefined when it was left out. */
  function resolve(i: number, seen: Set<number>): Outcome | undefined {
    if (outcome[i]) return outcome[i];
    const users = usedBy.get(i);
    if (!users || seen.has(i)) return undefined;
    seen.add(i);
    const theirs = users.map((u) => resolve(u, seen)).filter((o): o is Outcome => o !== undefined);
    if (theirs.some((o) => o !== 'already_present')) return 'merged';
    return theirs.length > 0 ? 'already_present' : undefined;
  }

  return {
    /** The entry's resource type ("(unknown)" when it has none). */
    typeOf: (i: number): string => types[i] ?? '',

    /** What the entry came to; the best of several (a record added beats one already there). */
    record(i: number, what: Outcome): void {
      if (!valid(i)) return;
      const now = outcome[i];
      if (!now || RANK[what] > RANK[now]) outcome[i] = what;
    },

    /**
     * Why the entry, or something of it, was left out. When nothing else becomes of the entry the first
     * reason is why it was dropped; the others — or all of them, when some of it was kept (a report
     * with one attachment kept and one refused) — are parts left out.
     */
    drop(i: number, reason: string, line?: string): void {
      if (valid(i) && !dropped[i]!.some((d) => d.reason === reason)) dropped[i]!.push({ reason, line });
    },

    /** Entry `helper` was read as part of entry `user`: it fares as its users do. */
    use(helper: number, user: number): void {
      if (!valid(helper) || !valid(user) || helper === user) return;
      const list = usedBy.get(helper) ?? [];
      if (!list.includes(user)) list.push(user);
      usedBy.set(helper, list);
    },

    /** How many entries of `type` added something of their own (imported, or merged into a record): what `imported` counts. */
    added(type: string): number {
      return types.filter((t, i) => t === type && (outcome[i] === 'imported' || outcome[i] === 'merged')).length;
    },

    /** A part of the entry that Kinchart could not keep, though the rest may be. */
    part(i: number, reason: string, line?: string): void {
      if (valid(i)) parts.push({ entry: i, reason: { reason, line } });
    },

    finish(): { report: ImportReportRow[]; skipped: string[] } {
      const rows = new Map<string, ImportReportRow>();
      const row = (type: string) => {
        let r = rows.get(type);
        if (!r) {
          r = { resource_type: type, imported: 0, merged: 0, already_present: 0, dropped: [], parts_left_out: [] };
          rows.set(type, r);
        }
        return r;
      };
      const lines = new Map<string, number>();
      const count = (list: ImportReasonCount[], reason: string) => {
        const found = list.find((d) => d.reason === reason);
        if (found) found.count += 1;
        else list.push({ reason, count: 1 });
      };
      types.forEach((type, i) => {
        const r = row(type);
        const final = resolve(i, new Set());
        const reasons = dropped[i]!;
        let rest = reasons;
        if (final) r[final] += 1;
        else {
          const why =
            reasons[0] ??
            (usedBy.has(i)
              ? { reason: 'named only by resources that were left out' }
              : { reason: NOT_IMPORTED, line: `${type} (not something Kinchart keeps)` });
          rest = reasons.slice(1);
          count(r.dropped, why.reason);
          const line = why.line ?? `${type} ${why.reason}`;
          lines.set(line, (lines.get(line) ?? 0) + 1);
        }
        for (const reason of rest) parts.push({ entry: i, reason });
      });
      for (const { entry, reason } of parts) {
        const type = types[entry] ?? '';
        count(row(type).parts_left_out, reason.reason);
        const line = reason.line ?? `${type} ${reason.reason}`;
        lines.set(line, (lines.get(line) ?? 0) + 1);
      }
      return { report: [...rows.values()], skipped: [...lines].map(([line, n]) => `${n} ${line}`) };
    },
  };
}
export type ImportTally = ReturnType<typeof createImportTally>;
