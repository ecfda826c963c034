import { doseSchema, type Dose, type DoseLogInput } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';
import { dosesPath } from './get-doses';

/** PUT /api/user/people/{personId}/doses/{doseId} `{ status }` → the dose as logged (idempotent; editor and up). */
export async function logDose(personId: string, doseId: string, input: DoseLogInput): Promise<Dose> {
  return doseSchema.parse(await api.put(dosesPath(personId, doseId), input));
}
