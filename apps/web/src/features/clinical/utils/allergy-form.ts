import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { z } from 'zod';
import {
  ALLERGY_CRITICALITIES,
  ALLERGY_SEVERITIES,
  allergyInputSchema,
  type Allergy,
  type AllergyCriticality,
  type AllergyInput,
  type AllergySeverity,
} from '@kinchart/shared/allergies';

/*
 * The allergy dialog's form as data (docs/decisions/0053): the words for severity and
 * criticality, the form's values for an entry, and the schema that turns them into the API's body
 * through the shared input schema (STYLE habit 1), its messages kept under their fields.
 */

export const SEVERITY_LABELS: Record<AllergySeverity, MessageDescriptor> = {
  mild: msg({ message: 'Mild', comment: 'Severity of an allergic reaction' }),
  moderate: msg({ message: 'Moderate', comment: 'Severity of an allergic reaction' }),
  severe: msg({ message: 'Severe', comment: 'Severity of an allergic reaction' }),
};

/** FHIR AllergyIntolerance.criticality: the risk of a future reaction, not how bad the last one was. */
export const CRITICALITY_LABELS: Record<AllergyCriticality, MessageDescriptor> = {
  low: msg({ message: 'Low', context: 'allergy criticality', comment: 'Criticality of an allergy: the risk of a future reaction' }),
  high: msg({ message: 'High', context: 'allergy criticality', comment: 'Criticality of an allergy: the risk of a future reaction' }),
  'unable-to-assess': msg({ message: 'Unable to assess', comment: 'Criticality of an allergy: the risk of a future reaction' }),
};

/** An empty choice: not known, sent as null. */
export const NOT_KNOWN = msg({ message: 'Not known', comment: 'An empty choice of allergy severity or criticality' });

export const severityOptions = ALLERGY_SEVERITIES.map((value) => ({ value, label: SEVERITY_LABELS[value] }));
export const criticalityOptions = ALLERGY_CRITICALITIES.map((value) => ({ value, label: CRITICALITY_LABELS[value] }));

export interface AllergyFormValues {
  substance: string;
  /** Objects, as react-hook-form's field arrays want them. */
  reactions: { text: string }[];
  severity: string;
  criticality: string;
}

/** The form for an entry, or an empty one (with one reaction box) to add. */
export function allergyFormValues(allergy: Allergy | null): AllergyFormValues {
  return {
    substance: allergy?.substance ?? '',
    reactions: (allergy && allergy.reactions.length > 0 ? allergy.reactions : ['']).map((text) => ({ text })),
    severity: allergy?.severity ?? '',
    criticality: allergy?.criticality ?? '',
  };
}

const choice = <T extends string>(values: readonly T[], value: string): T | null => values.find((v) => v === value) ?? null;

/**
 * Empty reaction boxes are left out; a message the shared schema gives about the n-th reaction
 * sent is filed under the box it came from. Codings are never sent, so an edit keeps the entry's.
 */
export const allergyFormSchema: z.ZodType<AllergyInput, AllergyFormValues> = z
  .object({ substance: z.string(), reactions: z.array(z.object({ text: z.string() })), severity: z.string(), criticality: z.string() })
  .transform((values, ctx): AllergyInput => {
    const boxes = values.reactions.map((r, index) => ({ text: r.text.trim(), index })).filter((r) => r.text !== '');
    const result = allergyInputSchema.safeParse({
      substance: values.substance,
      reactions: boxes.map((r) => r.text),
      severity: choice(ALLERGY_SEVERITIES, values.severity),
      criticality: choice(ALLERGY_CRITICALITIES, values.criticality),
    });
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const [field, position] = issue.path;
      const box = field === 'reactions' && typeof position === 'number' ? boxes[position] : undefined;
      const path = box ? ['reactions', box.index, 'text'] : issue.path.length > 0 ? issue.path : ['substance'];
      ctx.addIssue({ code: 'custom', message: issue.message, path });
    }
    return z.NEVER;
  });
