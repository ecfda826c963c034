import { t } from '@lingui/core/macro';
import { format } from 'date-fns';
import { z } from 'zod';
import type { Medication, MedicationInput } from '@kinchart/shared/profile';
import { formatDate } from '../../../lib/format';

/*
 * SPEC §5 "Prescriptions forms: medication name, dosage, frequency, purpose and start date are
 * required". The API's medication schema is looser on purpose (the profile editor's medication
 * form has no required fields, SPEC §5), so this screen checks its own rules before sending.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/*
 * The rules of the shared `requiredText` (packages/shared/src/profile.ts), with each message whole
 * in the reader's language: zod asks for a message (the function) only when a field fails, so the
 * language chosen since the schema was built is the one used.
 */
const required = (max: number, messages: { empty: () => string; long: () => string }) =>
  z.string({ error: messages.empty }).trim().min(1, { error: messages.empty }).max(max, { error: messages.long });

/** Today on the user's own calendar (not UTC), as the date inputs want it. */
export function localToday(now: Date = new Date()): string {
  return format(now, 'yyyy-MM-dd');
}

export const prescriptionFormSchema = z
  .object({
    medication_name: required(200, {
      empty: () => t`Medication name is required`,
      long: () => t`Medication name must be at most 200 characters`,
    }),
    dosage: required(200, { empty: () => t`Dosage is required`, long: () => t`Dosage must be at most 200 characters` }),
    frequency: required(200, { empty: () => t`Frequency is required`, long: () => t`Frequency must be at most 200 characters` }),
    purpose: required(500, { empty: () => t`Purpose is required`, long: () => t`Purpose must be at most 500 characters` }),
    start_date: z
      .string()
      .trim()
      .min(1, { error: () => t`Start date is required` })
      .regex(DATE, { error: () => t`Start date must be a date as YYYY-MM-DD` }),
    is_current: z.boolean(),
    // Only asked for, and only sent, when the medication is no longer being taken.
    end_date: z.string().trim(),
  })
  .superRefine((values, ctx) => {
    if (values.is_current) return;
    const problem = endDateProblem(values.end_date, values.start_date);
    if (problem) ctx.addIssue({ code: 'custom', path: ['end_date'], message: problem });
  });

export type PrescriptionFormValues = z.input<typeof prescriptionFormSchema>;
export type PrescriptionFormOutput = z.output<typeof prescriptionFormSchema>;

/** An empty add form: SPEC §3 is_current defaults to true. */
export function emptyPrescriptionForm(): PrescriptionFormValues {
  return { medication_name: '', dosage: '', frequency: '', purpose: '', start_date: '', is_current: true, end_date: '' };
}

/** The edit form for a stored medication. */
export function prescriptionFormFrom(medication: Medication): PrescriptionFormValues {
  return {
    medication_name: medication.medication_name ?? '',
    dosage: medication.dosage ?? '',
    frequency: medication.frequency ?? '',
    purpose: medication.purpose ?? '',
    start_date: medication.start_date ?? '',
    is_current: medication.is_current,
    end_date: medication.end_date ?? '',
  };
}

/** The body of POST /api/user/medications and PUT /api/user/medications/{id}. */
export function toMedicationInput(values: PrescriptionFormOutput): MedicationInput {
  return {
    medication_name: values.medication_name,
    dosage: values.dosage,
    frequency: values.frequency,
    purpose: values.purpose,
    start_date: values.start_date,
    is_current: values.is_current,
    end_date: values.is_current ? null : values.end_date,
  };
}

/**
 * 'End medication': the whole medication again (PUT replaces every field) with is_current false
 * and the chosen end date.
 */
export function endedMedicationInput(medication: Medication, endDate: string): MedicationInput {
  return {
    medication_name: medication.medication_name,
    dosage: medication.dosage,
    frequency: medication.frequency,
    purpose: medication.purpose,
    start_date: medication.start_date,
    is_current: false,
    end_date: endDate,
  };
}

/** Why an end date cannot be used, if it cannot: it is needed, and not before the start date. */
export function endDateProblem(endDate: string, startDate: string | null): string | undefined {
  if (endDate.trim() === '') return t`End date is required`;
  if (!DATE.test(endDate)) return t`End date must be a date as YYYY-MM-DD`;
  if (startDate && endDate < startDate) return t`End date cannot be before the start date`;
  return undefined;
}

/** A stored YYYY-MM-DD date as people read it ("Mar 5, 2026"); anything else as it came. */
export function displayDate(value: string | null): string {
  if (!value || !DATE.test(value)) return value ?? '';
  return formatDate(value);
}
