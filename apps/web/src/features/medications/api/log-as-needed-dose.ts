import { doseSchema, type Dose } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';
import { dosesPath } from './get-doses';

/** POST /api/user/people/{personId}/doses `{ medication_id }` → 201 with the dose, taken now (editor and up). */
export async function logAsNeededDose(personId: string, medicationId: string): Promise<Dose> {
  return doseSchema.parse(await api.post(dosesPath(personId), { medication_id: medicationId }));
}
