import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useFormContext, useWatch } from 'react-hook-form';
import { FLAG_DETAIL_PAIRS } from '@kinchart/shared/profile';
import { fieldError } from '../lib/field-error';
import type { ProfileFormInput } from '../lib/profile-form';
import { CheckboxField, TextareaField } from '../../../components/ui/form-controls';

type Pair = (typeof FLAG_DETAIL_PAIRS)[number];

/** The flags' labels (the shared pairs carry the English one). */
const FLAG_LABELS: Record<Pair[0], MessageDescriptor> = {
  has_allergies: msg`Allergies`,
  has_chronic_conditions: msg`Chronic conditions`,
  has_bleeding_disorders: msg`Bleeding disorder`,
  has_previous_surgeries: msg`Previous surgeries`,
  has_mobility_issues: msg`Mobility issues`,
  had_anesthesia_reactions: msg`Anesthesia reactions`,
};

const DETAIL_LABELS: Record<Pair[1], MessageDescriptor> = {
  allergy_details: msg`Allergy details`,
  chronic_condition_details: msg`Chronic condition details`,
  bleeding_disorder_details: msg`Bleeding disorder details`,
  surgery_details: msg`Surgery details`,
  mobility_details: msg`Mobility details`,
  anesthesia_reaction_details: msg`Anesthesia reaction details`,
};

/** One flag and, only while it is checked, its details text area (SPEC §2). */
function FlagWithDetails({ pair: [flagKey, detailsKey] }: { pair: Pair }) {
  const { t } = useLingui();
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<ProfileFormInput>();
  const checked = useWatch({ control, name: flagKey }) === true;
  const detailsId = `${flagKey}-details`;
  return (
    // Issue 33: search results for a person's allergies open `#allergies`.
    <div id={flagKey === 'has_allergies' ? 'allergies' : undefined} className="rounded-lg border border-slate-200 p-3">
      <CheckboxField label={t(FLAG_LABELS[flagKey])} aria-controls={checked ? detailsId : undefined} {...register(flagKey)} />
      {checked ? (
        <TextareaField
          id={detailsId}
          label={t(DETAIL_LABELS[detailsKey])}
          containerClassName="mt-2"
          error={fieldError(errors[detailsKey])}
          {...register(detailsKey)}
        />
      ) : null}
    </div>
  );
}

/** SPEC §2 'Medical Conditions' tab: the six flag/details pairs of SPEC §3. */
export function MedicalConditionsFields() {
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm text-slate-700">
        <Trans>Check each that applies and describe it.</Trans>
      </legend>
      {FLAG_DETAIL_PAIRS.map((pair) => (
        <FlagWithDetails key={pair[0]} pair={pair} />
      ))}
    </fieldset>
  );
}
