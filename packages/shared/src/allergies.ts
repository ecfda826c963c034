import { z } from 'zod';
import { requiredName } from './profile';
import { saysNoAllergies } from './problem-lines';

// Issue 34, docs/decisions/0053: an allergy is an entry — substance, reactions, severity,
// criticality and the codings its source gave. API: /api/user/people/{personId}/allergies.
// The profile's `allergy_details` text stays as the SPEC describes; it is derived from the entries,
// one line each (`allergyLine`), and the entries follow the text when the text is written.

/** FHIR AllergyIntolerance.reaction.severity. */
export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];

/** FHIR AllergyIntolerance.criticality. */
export const ALLERGY_CRITICALITIES = ['low', 'high', 'unable-to-assess'] as const;
export type AllergyCriticality = (typeof ALLERGY_CRITICALITIES)[number];

export const ALLERGY_REACTIONS_MAX = 10;
export const ALLERGY_CODINGS_PER_ENTRY = 10;

/** Between the substance and its reactions in an allergy's line of the details text. */
export const REACTIONS_SEPARATOR = ' — ';

const enumOrNull = <T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z
    .union([z.enum(values), z.null()], { error: `${label} must be one of ${values.join(', ')} or null` })
    .optional()
    .transform((v) => v ?? null);

const codingInputSchema = z.object({
  system: z.string({ error: 'system is required' }).trim().min(1, 'system is required').max(500, 'system must be at most 500 characters'),
  code: z.string({ error: 'code is required' }).trim().min(1, 'code is required').max(200, 'code must be at most 200 characters'),
  display: z
    .union([z.string().max(500, 'display must be at most 500 characters'), z.null()], { error: 'display must be text' })
    .optional()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)),
});

/** POST and PUT …/allergies: the whole entry (PUT replaces it; codings left out are kept). */
export const allergyInputSchema = z.object({
  substance: requiredName('Substance', 200).refine(
    (s) => !saysNoAllergies(s),
    'Substance says that no allergies are known: leave the list empty instead',
  ),
  reactions: z
    .array(requiredName('Reaction', 200), { error: 'reactions must be a list of texts' })
    .max(ALLERGY_REACTIONS_MAX, `reactions must have at most ${ALLERGY_REACTIONS_MAX} entries`)
    .optional()
    .transform((list) => list ?? []),
  severity: enumOrNull('Severity', ALLERGY_SEVERITIES),
  criticality: enumOrNull('Criticality', ALLERGY_CRITICALITIES),
  codings: z
    .array(codingInputSchema, { error: 'codings must be a list of { system, code, display }' })
    .max(ALLERGY_CODINGS_PER_ENTRY, `codings must have at most ${ALLERGY_CODINGS_PER_ENTRY} entries`)
    .optional(),
});
export type AllergyInput = z.output<typeof allergyInputSchema>;

export const allergyCodingOutSchema = z.object({
  system: z.string().nullable(),
  code: z.string().nullable(),
  display: z.string().nullable(),
});

export const allergySchema = z.object({
  id: z.string(),
  substance: z.string(),
  reactions: z.array(z.string()),
  severity: z.enum(ALLERGY_SEVERITIES).nullable(),
  criticality: z.enum(ALLERGY_CRITICALITIES).nullable(),
  codings: z.array(allergyCodingOutSchema),
});
export type Allergy = z.infer<typeof allergySchema>;

/** GET …/allergies: the person's allergies in their order (the order of the details lines). */
/** GET …/allergies: the list itself, as the other clinical lists answer (DESIGN §12). */
export const allergyListSchema = z.array(allergySchema);

export const allergyWithMessageSchema = allergySchema.extend({ message: z.string() });

export const ALLERGY_MESSAGES = {
  added: 'Allergy added',
  updated: 'Allergy updated',
  deleted: 'Allergy deleted',
  notFound: 'Allergy not found',
} as const;

/**
 * An entry's line of the details text: the substance, then its reactions ("Penicillin — hives,
 * swelling"). A line equal to an entry's line is that entry, so the round trip text → entries →
 * text changes nothing.
 */
export function allergyLine(entry: { substance: string; reactions: readonly string[] }): string {
  const substance = entry.substance.trim();
  const reactions = entry.reactions.map((r) => r.trim()).filter((r) => r !== '');
  return reactions.length > 0 ? `${substance}${REACTIONS_SEPARATOR}${reactions.join(', ')}` : substance;
}
