import { messageSchema } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { dosesPath } from './get-doses';

/** DELETE /api/user/people/{personId}/doses/{doseId}: the log entry goes; a scheduled dose is open again. */
export async function undoDose(personId: string, doseId: string): Promise<void> {
  messageSchema.parse(await api.delete(dosesPath(personId, doseId)));
}
