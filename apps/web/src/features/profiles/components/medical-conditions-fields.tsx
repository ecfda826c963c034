import { useFormContext, useWatch } from 'react-hook-form';
import { FLAG_DETAIL_PAIRS } from '@kinchart/shared/profile';
import type { ProfileFormInput } from '../lib/profile-form';
import { CheckboxField, TextareaField } from '../../../components/ui/form-controls';

type Pair = (typeof FLAG_DETAIL_PAIRS)[number];

const DETAIL_LABELS: Record<Pair[1], string> = {
  allergy_details: 'Allergy details',
  chronic_condition_details: 'Chronic condition details',
  bleeding_disorder_details: 'Bleeding disorder details',
  surgery_details: 'Surgery details',
  mobility_details: 'Mobility details',
  anesthesia_reaction_details: 'Anesthesia reaction details',
};

/** One flag and, only while it is checked, its details text area (SPEC §2). */
function FlagWithDetails({ pair: [flagKey, detailsKey, label] }: { pair: Pair }) {
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
      <CheckboxField label={label} aria-controls={checked ? detailsId : undefined} {...register(flagKey)} />
      {checked ? (
        <TextareaField
          id={detailsId}
          label={DETAIL_LABELS[detailsKey]}
          containerClassName="mt-2"
          error={errors[detailsKey]?.message}
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
      <legend className="mb-2 text-sm text-slate-700">Check each that applies and describe it.</legend>
      {FLAG_DETAIL_PAIRS.map((pair) => (
        <FlagWithDetails key={pair[0]} pair={pair} />
      ))}
    </fieldset>
  );
}
