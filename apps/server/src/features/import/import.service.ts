import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type {
  AlreadyPresent,
  ClinicalCounts,
  ImportCounts,
  ImportReportRow,
  ImportResult,
  KinchartExportParsed,
} from '@kinchart/shared/export';
import { EXPORT_FORMAT, IMPORT_TARGET_FIELD, kinchartExportSchema } from '@kinchart/shared/export';
import type { Db } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import { nowIso } from '../../lib/ids';
import { UNSTORABLE_TEXT_MESSAGE, hasUnstorableText } from '../../lib/storable-text';
import type { BlobStore } from '../../storage/blob-store';
import { recordAudit } from '../../common/audit';
import type { Actor, PersonAccess, PersonAccessService } from '../../common/person-access';
import type { StorageQuota } from '../files/storage-quota';
import type { StoredImportFile } from './blob-writer';
import { createBlobWriter } from './blob-writer';
import type { Spool } from './encrypted-spool';
import { spoolEncrypted } from './encrypted-spool';
import { FhirValidationError, validateBundle } from './fhir-bundle';
import type { SanitizedPlan } from './fhir-merge';
import {
  CLINICAL_TABLES,
  clinicalAdditions,
  documentRows,
  listAdditions,
  newAppointments,
  profileChange,
  sanitizePlan,
  splitDocuments,
} from './fhir-merge';
import type { PlannedDocument, Sourced } from './fhir-plan';
import { planFromBundle } from './fhir-plan';
import { addLeftOut, ccdaToBundle, checkXml, isClinicalDocument, looksLikeXml } from './ccda-document';
import { checkFormat, kindOf, multipartError, parseJson, readXmlText, zodMessage } from './import-input';
import type { ImportLimits } from './import-limits';
import { mb } from './import-limits';
import type { ImportQueries } from './import.repository';
import { createImportRepository } from './import.repository';
import type { ExistingAccount, ListTable } from './kinchart-match';
import { LIST_TABLES, existingAccount, keyOf, matchKinchart } from './kinchart-match';
import { careRestores, checkListCaps, feedRestores, restoreRows, withUids } from './kinchart-restore';
import { MAX_CALENDAR_FEEDS } from '../calendar/calendar-transfer';
import { restoreClinical } from './kinchart-clinical';
import { openZip } from './zip-archive';

// POST /api/user/import (decision 0004): a Kinchart export zip, a FHIR R4 Bundle or a C-CDA document (0050). The upload is
// spooled (encrypted) while it arrives, its kind is told by its first bytes, and it is checked in
// full before anything changes. Files are committed as blobs first, then every row goes in one
// transaction; on any failure the blobs are removed again. Bad input is a 4xx with a message that
// says what is wrong — and the account is exactly as it was. Records the account already holds are
// not added again, and what is added counts against the storage quota (decision 0012).

export const NOT_IMPORTABLE = 'This file is neither a Kinchart export (.zip), a FHIR R4 Bundle (.json) nor a C-CDA document (.xml).';
const NOT_CCDA = 'This XML file is not a C-CDA document: its root is not a ClinicalDocument in the urn:hl7-org:v3 namespace.';

export interface ImportDeps {
  db: Db;
  blobs: BlobStore;
  masterKey: Buffer;
  log: FastifyBaseLogger;
  /** This process's own spool folder (storage/process-dir.ts): the caller sweeps what crashed processes left. */
  spoolDir: string;
  limits: ImportLimits;
  /** STORAGE_QUOTA_MB: what an import adds counts like uploads (DESIGN §5). */
  quota: StorageQuota;
  /** The one access function (DESIGN §11): whom a FHIR Bundle may be imported for. */
  access: PersonAccessService;
}

/** What the account holds, as identity keys: what a Kinchart export is matched against (kinchart-match.ts). */
async function existingOf(q: ImportQueries, userId: string): Promise<ExistingAccount> {
  const selfId = await q.selfProfileId(userId);
  if (!selfId) throw notFound('Profile not found');
  return existingAccount(selfId, await q.account(userId));
}

type Counted = { counts: ImportCounts; present: AlreadyPresent };

export function createImportService(deps: ImportDeps) {
  const { db, limits } = deps;
  const repo = createImportRepository(db);
  const tooLarge = () => new HttpError(413, `The file is larger than ${mb(limits.maxImportBytes)} MB, the most an import may be.`);

  type Outcome = Counted & { skipped: string[]; report: ImportReportRow[] };
  const IMPORT_NEEDS = "this import's files need";

  /**
   * Whom a FHIR Bundle goes to: the user's own profile ('self' or none), or a person they may edit
   * (a family member, or a person shared with them as editor or manager; DESIGN §11) — whose owner
   * then holds what is added, quota included. Anyone else is the same 404 as a missing id.
   */
  async function targetOf(actor: Actor, route: string, target: string | undefined): Promise<PersonAccess> {
    if (!target || target === 'self') return deps.access.own(actor.userId);
    return deps.access.member(actor, target, { need: 'editor', what: route });
  }

  /**
   * Restores a Kinchart export (kinchart-restore.ts) in one transaction. `stored` holds the blobs
   * written for the files expected to be added; `unused` names those that turned out, under the
   * lock, to be there already (the caller removes them). Refused whole past the storage quota.
   */
  async function restoreKinchart(
    userId: string,
    doc: KinchartExportParsed,
    stored: Map<string, StoredImportFile>,
  ): Promise<Counted & { unused: string[]; skipped: string[] }> {
    // Whom the account can see, for calendar feeds of people the export does not hold (read before
    // the transaction: the access function reads through its own connection).
    const visible = new Set((await deps.access.visible(userId)).map((p) => p.profileId));
    return repo.transaction(async (tx) => {
      // First the account's lock: a parallel import or upload of this account waits, so what is
      // "already there" and the quota are both decided on what is really there (decision 0012).
      await tx.lockAccount(userId);
      const now = nowIso();
      const existing = await existingOf(tx, userId);
      const match = matchKinchart(doc, existing);
      const restore = restoreRows(doc, match, existing.selfId, stored);
      await tx.checkQuota(
        userId,
        restore.files.reduce((sum, f) => sum + f.size, 0),
        deps.quota,
        IMPORT_NEEDS,
      );
      checkListCaps(match);
      // DESIGN §12: the people's clinical items, added (never replaced) where not already there.
      const clinical = restoreClinical(
        doc,
        match.profileIds,
        existing.selfId,
        {
          immunizations: await tx.clinicalItems(userId, 'immunizations'),
          lab_results: await tx.clinicalItems(userId, 'lab_results'),
          conditions: await tx.clinicalItems(userId, 'conditions'),
          procedures: await tx.clinicalItems(userId, 'procedures'),
        },
        restoredFileIds(match.files, stored),
      );

      if (restore.self) {
        await tx.updateProfile(userId, existing.selfId, { ...restore.self.fields, updated_at: now });
        // The own profile becomes the export's: its allergy entries too (docs/decisions/0053).
        await tx.replaceAllergies(userId, existing.selfId, restore.self.allergies);
      }
      if (restore.preferences) await tx.updatePreferences(userId, restore.preferences);
      await tx.insertMembers(userId, restore.members);
      const writeList = async <T extends ListTable>(table: T) => {
        const list = restore.lists[table];
        await tx.deleteListRows(userId, table, list.remove);
        for (const u of list.update) await tx.updateListRow(userId, table, u.id, u.values, u.position);
        await tx.insertListRows(userId, table, list.insert);
      };
      for (const table of LIST_TABLES) await writeList(table);
      // Issue 32: the reminder choices for the account's people, once those people exist.
      await tx.saveReminderSettings(
        userId,
        (doc.reminder_settings ?? []).flatMap((r) => {
          const profileId = match.profileIds.get(r.person_id);
          return profileId ? [{ ...r, profileId }] : [];
        }),
        now,
      );
      // Issue 32: the calendar feeds' settings, each with a fresh token nobody knows (decision 0045).
      const held = await tx.calendarFeeds(userId);
      const feeds = feedRestores(doc, match.profileIds, visible, held, MAX_CALENDAR_FEEDS - held.length);
      await tx.insertCalendarFeeds(userId, feeds.feeds, now);
      // Issue 32: schedules and logged doses follow their medications (none replaced, none doubled).
      await tx.restoreCare(userId, { userId, exportUsername: doc.account.username }, careRestores(doc, restore.medicationIds));
      const taken = await tx.takenUids(restore.appointments.flatMap((a) => (a.uid ? [a.uid] : [])));
      await tx.insertAppointments(userId, withUids(restore.appointments, taken));
      await tx.insertNotifications(userId, restore.notifications);
      await tx.insertFiles(userId, restore.files);
      for (const w of clinical.writes) await tx.insertClinicalItems(userId, w.table, w.profileId, w.items);
      return {
        counts: { ...restore.counts, ...clinical.counts },
        present: { ...restore.present, ...clinical.present },
        unused: restore.unused,
        skipped: feeds.skipped,
      };
    });
  }

  /**
   * Merges a FHIR plan into one person (fhir-merge.ts) in one transaction; `documents` are those
   * whose blobs were written. Every outcome reaches the plan's tally (decision 0022).
   */
  async function mergeFhir(
    userId: string,
    profileId: string,
    plan: SanitizedPlan,
    documents: { stored: StoredImportFile; doc: PlannedDocument }[],
  ): Promise<Counted> {
    const { tally } = plan;
    const outcome = (items: Sourced[], what: 'imported' | 'merged' | 'already_present') => {
      for (const item of items) tally.record(item.from, what);
    };
    return repo.transaction(async (tx) => {
      await tx.lockAccount(userId);
      await tx.checkQuota(
        userId,
        documents.reduce((sum, d) => sum + d.stored.size, 0),
        deps.quota,
        IMPORT_NEEDS,
      );
      const now = nowIso();
      const current = await tx.profileState(userId, profileId);
      if (!current) throw notFound('Family member not found');
      await tx.updateProfile(userId, profileId, profileChange(plan, current, now));

      const rowsOf = <T extends ListTable>(table: T) => tx.listRows(userId, table, profileId);
      // Emergency contacts come from the Patient: a new one means the Patient merged something.
      const contacts = listAdditions(
        'emergency_contacts',
        profileId,
        plan.contacts,
        await rowsOf('emergency_contacts'),
        keyOf.contact,
        now,
        tally,
      );
      await tx.insertListRows(userId, 'emergency_contacts', contacts.rows);
      outcome(contacts.fresh, 'merged');
      const providers = listAdditions(
        'healthcare_providers',
        profileId,
        plan.providers,
        await rowsOf('healthcare_providers'),
        keyOf.provider,
        now,
        tally,
      );
      await tx.insertListRows(userId, 'healthcare_providers', providers.rows);
      outcome(providers.fresh, 'imported');
      outcome(providers.present, 'already_present');
      const stamped = plan.medications.map((m) => ({ ...m, codings: m.codings.length > 0 ? m.codings : null, updated_at: now }));
      const medications = listAdditions('medications', profileId, stamped, await rowsOf('medications'), keyOf.medication, now, tally);
      await tx.insertListRows(userId, 'medications', medications.rows);
      outcome(medications.fresh, 'imported');
      outcome(medications.present, 'already_present');
      const appointments = newAppointments(plan.appointments, profileId, await tx.appointments(userId, profileId), now);
      await tx.insertAppointments(userId, appointments.rows);
      outcome(appointments.fresh, 'imported');
      outcome(appointments.present, 'already_present');
      // DESIGN §12: immunizations, lab results, conditions and procedures, each kind up to CLINICAL_CAP.
      const clinicalAdded: ClinicalCounts = { immunizations: 0, lab_results: 0, conditions: 0, procedures: 0 };
      const clinicalPresent: ClinicalCounts = { immunizations: 0, lab_results: 0, conditions: 0, procedures: 0 };
      for (const table of CLINICAL_TABLES) {
        const items = plan.clinical.filter((c) => c.table === table);
        if (items.length === 0) continue;
        const have = await tx.clinicalRows(userId, table, profileId);
        const { fresh, present } = clinicalAdditions(table, items, have, have.length, tally);
        await tx.insertClinicalItems(userId, table, profileId, fresh);
        clinicalAdded[table] = fresh.length;
        clinicalPresent[table] = present.length;
        outcome(fresh, 'imported');
        outcome(present, 'already_present');
      }
      await tx.insertFiles(userId, documentRows(documents, profileId, now));
      outcome(
        documents.map((d) => d.doc),
        'imported',
      );
      return {
        counts: {
          family_members: 0,
          // What was added: an allergy or condition already in the details (and structured list) is not counted again.
          allergies: tally.added('AllergyIntolerance'),
          conditions: tally.added('Condition'),
          immunizations: clinicalAdded.immunizations,
          lab_results: clinicalAdded.lab_results,
          procedures: clinicalAdded.procedures,
          emergency_contacts: contacts.rows.length,
          healthcare_providers: providers.rows.length,
          medications: medications.rows.length,
          appointments: appointments.rows.length,
          notifications: 0,
          files: documents.length,
        },
        present: {
          family_members: 0,
          emergency_contacts: contacts.present.length,
          healthcare_providers: providers.present.length,
          medications: medications.present.length,
          ...clinicalPresent,
          appointments: appointments.present.length,
          notifications: 0,
          files: plan.documents.length - documents.length,
        },
      };
    });
  }

  async function importZip(userId: string, spool: Spool): Promise<Outcome> {
    const archive = await openZip(spool, limits);
    try {
      // An export unzipped and zipped again has one folder around everything: accept that too.
      let prefix = '';
      let manifest = archive.entries.get('kinchart.json');
      if (!manifest) {
        const nested = [...archive.entries.keys()].filter((n) => /^[^/]+\/kinchart\.json$/.test(n));
        if (nested.length === 1) {
          prefix = nested[0]!.slice(0, -'kinchart.json'.length);
          manifest = archive.entries.get(nested[0]!);
        }
      }
      if (!manifest) throw badRequest('This zip is not a Kinchart export: kinchart.json is missing.');
      if (manifest.uncompressedSize > limits.maxJsonBytes)
        throw new HttpError(413, `kinchart.json is larger than ${mb(limits.maxJsonBytes)} MB.`);
      const raw = parseJson(await archive.read(manifest), 'kinchart.json');
      checkFormat(raw);
      const parsed = kinchartExportSchema.safeParse(raw);
      if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'kinchart.json'));
      const doc = parsed.data;

      const entries = doc.files.map((f) => {
        const entry = archive.entries.get(prefix + f.path);
        if (!entry) throw badRequest(`kinchart.json lists ${f.path}, which is not in the zip.`);
        if (entry.uncompressedSize !== f.size)
          throw badRequest(`${f.path} is ${entry.uncompressedSize} bytes, but kinchart.json says ${f.size}.`);
        if (f.size > limits.maxFileBytes)
          throw new HttpError(413, `${f.path} is larger than ${mb(limits.maxFileBytes)} MB, the most a file may be.`);
        return { file: f, entry };
      });

      // Files the account already holds are neither written nor counted against the quota (decision
      // 0012). Decided here without the lock, to spare the writes; the transaction decides again.
      const fresh = new Set(matchKinchart(doc, await existingOf(repo, userId)).files.map((f) => f.id));
      const toWrite = entries.filter(({ file }) => fresh.has(file.id));
      await repo.checkQuota(
        userId,
        toWrite.reduce((sum, { file }) => sum + file.size, 0),
        deps.quota,
        IMPORT_NEEDS,
      );

      const writer = createBlobWriter({ ...deps, maxFileBytes: limits.maxFileBytes });
      try {
        const stored = new Map<string, StoredImportFile>();
        for (const { file, entry } of toWrite) stored.set(file.id, await writer.write(userId, await archive.open(entry), file.path));
        const { counts, present, unused, skipped } = await restoreKinchart(userId, doc, stored);
        await writer.remove(unused);
        return { counts, present, skipped, report: [] };
      } catch (error) {
        await writer.removeAll();
        throw error;
      }
    } finally {
      archive.close();
    }
  }

  async function readSpool(spool: Spool, what: string): Promise<Buffer> {
    if (spool.size > limits.maxJsonBytes) throw new HttpError(413, `${what} may be at most ${mb(limits.maxJsonBytes)} MB.`);
    const chunks: Buffer[] = [];
    for await (const c of spool.stream()) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async function importFhir(person: PersonAccess, spool: Spool): Promise<Outcome> {
    const json = parseJson(await readSpool(spool, 'A FHIR Bundle'), 'The file');
    if (json && typeof json === 'object' && (json as { format?: unknown }).format === EXPORT_FORMAT) {
      throw badRequest('This is kinchart.json on its own. Import the whole export zip: it also holds the files.');
    }
    return importBundle(person, json);
  }

  /** A C-CDA ClinicalDocument (decision 0050): checked, converted, corrected, then the FHIR path. */
  async function importCcda(person: PersonAccess, spool: Spool): Promise<Outcome> {
    const xml = readXmlText(await readSpool(spool, 'An XML document'));
    if (!isClinicalDocument(checkXml(xml))) throw badRequest(NOT_CCDA);
    const { bundle, leftOut } = ccdaToBundle(xml);
    const outcome = await importBundle(person, bundle);
    return { ...outcome, ...addLeftOut(outcome, leftOut) };
  }

  async function importBundle(person: PersonAccess, json: unknown): Promise<Outcome> {
    const userId = person.ownerId;
    const profile = { id: person.profileId, isSelf: person.isSelf };
    let plan: SanitizedPlan;
    try {
      // Resource by resource (decision 0022): only a file that is not a Bundle is refused whole.
      plan = sanitizePlan(planFromBundle(validateBundle(json), { isSelf: profile.isSelf }));
    } catch (error) {
      if (error instanceof FhirValidationError) throw badRequest(`FHIR Bundle is not valid: ${error.message}`);
      throw error;
    }
    const { tally } = plan;

    // Documents already there (same name, same size) are not added twice.
    const { fresh, present } = splitDocuments(plan.documents, await repo.fileSizes(userId));
    for (const doc of present) tally.record(doc.from, 'already_present');
    await repo.checkQuota(
      userId,
      fresh.reduce((sum, d) => sum + d.data.length, 0),
      deps.quota,
      IMPORT_NEEDS,
    );
    const writer = createBlobWriter({ ...deps, maxFileBytes: limits.maxFileBytes });
    try {
      const stored: { stored: StoredImportFile; doc: PlannedDocument }[] = [];
      for (const doc of fresh) {
        try {
          stored.push({ stored: await writer.write(userId, Readable.from([doc.data]), doc.label), doc });
        } catch (error) {
          // A file type Kinchart does not keep, or one past MAX_UPLOAD_MB: that attachment is left out (DESIGN §6).
          if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
          const why = error.message.startsWith(`${doc.label}: `) ? error.message.slice(doc.label.length + 2) : error.message;
          tally.drop(doc.from, `attachment not kept (${why})`);
        }
      }
      const { counts, present: already } = await mergeFhir(userId, profile.id, plan, stored);
      const { report, skipped } = tally.finish();
      return { counts, present: already, skipped, report };
    } catch (error) {
      await writer.removeAll();
      throw error;
    }
  }

  return {
    async import(actor: Actor, route: string, parts: AsyncIterable<Multipart>): Promise<ImportResult> {
      const userId = actor.userId;
      const ip = actor.ip ?? '';
      let spool: Spool | undefined;
      let target: string | undefined;
      try {
        for await (const part of parts) {
          if (part.type === 'field') {
            // A NUL in the target id failed the PostgreSQL lookup with a 500 (found by the fuzz suite).
            if (hasUnstorableText(part.value)) throw badRequest(UNSTORABLE_TEXT_MESSAGE);
            if (part.fieldname === IMPORT_TARGET_FIELD) target = String(part.value).trim().slice(0, 64) || undefined;
            continue;
          }
          if (part.fieldname !== 'file' || spool) {
            part.file.resume();
            throw badRequest('Send one file, in the "file" field');
          }
          if (!part.filename) {
            part.file.resume();
            continue;
          }
          part.file.on('limit', () => part.file.destroy(tooLarge()));
          spool = await spoolEncrypted(part.file, deps.spoolDir, limits.maxImportBytes, tooLarge);
          if (part.file.truncated) throw tooLarge();
        }
        if (!spool) throw badRequest('Choose a file to import.');
        if (spool.size === 0) throw badRequest('The file is empty.');
        const kind = kindOf(spool.head) ?? (looksLikeXml(spool.head) ? 'xml' : null);
        if (!kind) throw new HttpError(415, NOT_IMPORTABLE);
        const { counts, present, skipped, report } =
          kind === 'zip'
            ? await importZip(userId, spool)
            : kind === 'json'
              ? await importFhir(await targetOf(actor, route, target), spool)
              : await importCcda(await targetOf(actor, route, target), spool);
        const format = kind === 'zip' ? 'kinchart' : kind === 'json' ? 'fhir' : 'ccda';
        await recordAudit(db, { userId, action: 'import', ip, detail: { format, ...counts } });
        return { message: 'Import complete.', format, imported: counts, already_present: present, skipped, report };
      } catch (error) {
        throw multipartError(error, tooLarge);
      } finally {
        await spool?.remove();
      }
    },
  };
}
export type ImportService = ReturnType<typeof createImportService>;

/** Each export file this restore adds (restoreRows: a match with a stored blob) → its new id. */
function restoredFileIds(files: readonly { id: string }[], stored: ReadonlyMap<string, StoredImportFile>): Map<string, string> {
  return new Map(
    files.flatMap((f) => {
      const blob = stored.get(f.id);
      return blob ? [[f.id, blob.id] as const] : [];
    }),
  );
}
