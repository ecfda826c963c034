import { z } from 'zod';

/**
 * DESIGN §11: every record file and appointment belongs to one person, and the server's answers
 * name them. Read with the answers' shared schemas (`schema.extend(personOwnedFields)`); optional,
 * so an answer from before people were introduced still parses.
 */
export const personOwnedFields = {
  person_id: z.string().nullish(),
  person_name: z.string().nullish(),
};

export interface PersonOwned {
  person_id?: string | null | undefined;
  person_name?: string | null | undefined;
}
