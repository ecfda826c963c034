import { CLINICAL_CAP, CLINICAL_LABELS, type Immunization } from '@kinchart/shared/clinical';
import type { Db } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import { nowIso } from '../../lib/ids';
import type { AccessNeed, Actor, PersonAccessService } from '../../common/person-access';
import type { AnyKindSpec, ClinicalTable } from './clinical-kinds';
import { immunizations, notFoundMessage, parseCodings } from './clinical-kinds';
import { vaccinationRecordFileName, vaccinationRecordPdf } from './immunization-record';
import type { ClinicalInsert, ClinicalRowBase } from './clinical.repository';
import { accountClinicalItems, createClinicalRepository, insertClinicalItems } from './clinical.repository';
import { printableTranslator } from '../../i18n/printable';
import { translatorOfUser } from '../../i18n/recipients';

export type { ClinicalInsert, ClinicalRowBase } from './clinical.repository';

/** A route's name in the owner's access history ("GET /api/user/people/:personId/immunizations"). */
export type RouteName = string;

/**
 * Immunizations, lab results, conditions and procedures of one person (DESIGN §11, §12). The person
 * in the path decides who reaches them, through the one access function: a viewer reads, an editor
 * adds, edits and deletes; anyone else gets the same 404 as for a missing id. An item whose id
 * belongs to another person answers 404 too, so a path can never reach past its person.
 */
export function createClinicalService(deps: { db: Db; access: PersonAccessService }) {
  const { access } = deps;
  const repo = createClinicalRepository(deps.db);

  const need = (role: AccessNeed['need'], what: RouteName): AccessNeed => ({ need: role, what });
  const answer = (spec: AnyKindSpec, row: ClinicalRowBase): unknown => spec.answer(row, parseCodings(row.codings));

  /**
   * An editor's access to the person and their item `id`. No access to the person, and an item of
   * another person, answer the same 404 as an unknown item id (403 stays for a viewer).
   */
  async function editableItem(spec: AnyKindSpec, actor: Actor, route: RouteName, personId: string, id: string) {
    const person = await access.require(actor, personId, need('editor', route)).catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 404 ? notFound(notFoundMessage(spec)) : error;
    });
    const row = await repo.find(spec.table, id);
    if (!row || row.user_id !== person.ownerId || row.profile_id !== person.profileId) throw notFound(notFoundMessage(spec));
    return person;
  }

  return {
    async list(spec: AnyKindSpec, actor: Actor, route: RouteName, personId: string): Promise<unknown[]> {
      const person = await access.require(actor, personId, need('viewer', route));
      const rows = await repo.list(spec.table, spec.dateColumn, person.ownerId, person.profileId);
      return rows.map((row) => answer(spec, row));
    },

    async create(spec: AnyKindSpec, actor: Actor, route: RouteName, personId: string, fields: { codings?: unknown }): Promise<unknown> {
      const person = await access.require(actor, personId, need('editor', route));
      const row = await repo.insert(spec.table, person.ownerId, person.profileId, spec.columns(fields), (fields.codings as never) ?? []);
      if (!row) throw badRequest(`A person can have at most ${CLINICAL_CAP} ${CLINICAL_LABELS[spec.kind].many.toLowerCase()}.`);
      return answer(spec, row);
    },

    async update(
      spec: AnyKindSpec,
      actor: Actor,
      route: RouteName,
      personId: string,
      id: string,
      fields: { codings?: unknown },
    ): Promise<unknown> {
      const person = await editableItem(spec, actor, route, personId, id);
      const row = await repo.update(spec.table, person.ownerId, id, spec.columns(fields), fields.codings as never);
      if (!row) throw notFound(notFoundMessage(spec));
      return answer(spec, row);
    },

    async remove(spec: AnyKindSpec, actor: Actor, route: RouteName, personId: string, id: string): Promise<void> {
      const person = await editableItem(spec, actor, route, personId, id);
      if (!(await repo.delete(spec.table, person.ownerId, id))) throw notFound(notFoundMessage(spec));
    },

    /**
     * The person's vaccination record as a PDF to print (DESIGN §12): whoever may read the
     * immunizations (a viewer and up) may print them.
     */
    async vaccinationRecord(actor: Actor, route: RouteName, personId: string): Promise<{ body: Buffer; fileName: string }> {
      const person = await access.require(actor, personId, need('viewer', route));
      const [profile, rows] = await Promise.all([
        repo.person(person.ownerId, person.profileId),
        repo.list(immunizations.table, immunizations.dateColumn, person.ownerId, person.profileId),
      ]);
      const name = profile?.name ?? null;
      const body = await vaccinationRecordPdf({
        name,
        dateOfBirth: profile?.date_of_birth ?? null,
        immunizations: rows.map((row) => answer(immunizations, row) as Immunization),
        printedOn: nowIso().slice(0, 10),
        // Issue 35: the requester's language, when the record's font draws it (else English).
        tr: printableTranslator(await translatorOfUser(deps.db, actor.userId)),
      });
      return { body, fileName: vaccinationRecordFileName(name) };
    },
  };
}

export type ClinicalService = ReturnType<typeof createClinicalService>;

/**
 * What another feature's transaction reads and writes of the clinical items — an import's or a
 * restore's, on its own open transaction `db`, which holds the account's lock. The caller has
 * decided whose items they are and checked CLINICAL_CAP; every statement carries the owner's id.
 */
export function clinicalTransfer(db: Db) {
  return {
    /** Every item of `table` the account holds, or one person's. */
    items: (table: ClinicalTable, ownerId: string, profileId?: string): Promise<ClinicalRowBase[]> =>
      accountClinicalItems(db, table, ownerId, profileId),
    /** Adds `items` for one person, in their order. */
    insert: (table: ClinicalTable, ownerId: string, profileId: string, items: readonly ClinicalInsert[]): Promise<string[]> =>
      insertClinicalItems(db, table, ownerId, profileId, items),
  };
}
