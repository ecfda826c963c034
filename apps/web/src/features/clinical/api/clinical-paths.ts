import type { z } from 'zod';
import {
  conditionSchema,
  immunizationSchema,
  labResultSchema,
  procedureSchema,
  type ClinicalKind,
  type Condition,
  type ConditionFields,
  type Immunization,
  type ImmunizationFields,
  type LabResult,
  type LabResultFields,
  type Procedure,
  type ProcedureFields,
} from '@kinchart/shared/clinical';

/*
 * DESIGN §12: the four kinds of clinical item share one API shape —
 * /api/user/people/{personId}/{kind} (GET, POST) and …/{id} (PUT, DELETE) — so the calls are
 * written once over the kind; this file holds what differs (the answer's schema) and the paths.
 */

/** What one item of each kind is, as the API answers it. */
export interface ClinicalItems {
  immunizations: Immunization;
  'lab-results': LabResult;
  conditions: Condition;
  procedures: Procedure;
}

/**
 * What a form sends for each kind (POST and PUT take the same body): the shared input schema's
 * output, so what leaves has passed the very checks the server makes.
 */
export interface ClinicalInputs {
  immunizations: ImmunizationFields;
  'lab-results': LabResultFields;
  conditions: ConditionFields;
  procedures: ProcedureFields;
}

export type ClinicalItem<K extends ClinicalKind> = ClinicalItems[K];

/** The answer schemas: every answer is parsed with the shared schema of its kind. */
export const itemSchemas: { [K in ClinicalKind]: z.ZodType<ClinicalItems[K]> } = {
  immunizations: immunizationSchema,
  'lab-results': labResultSchema,
  conditions: conditionSchema,
  procedures: procedureSchema,
};

/** The prefix of one person's clinical queries; a kind's list adds the kind. */
export const clinicalQueryKey = (personId: string, kind?: ClinicalKind) =>
  kind ? (['clinical', personId, kind] as const) : (['clinical', personId] as const);

/** /api/user/people/{personId}/{kind}[/{id}] */
export function clinicalPath(personId: string, kind: ClinicalKind, id?: string): string {
  const base = `/api/user/people/${encodeURIComponent(personId)}/${kind}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}
