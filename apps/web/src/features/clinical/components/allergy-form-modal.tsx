import { useId, useRef, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLingui } from '@lingui/react/macro';
import type { Allergy, AllergyInput } from '@kinchart/shared/allergies';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { SelectField } from '../../../components/ui/form-controls';
import { Modal } from '../../../components/ui/modal';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useSaveAllergy } from '../api/save-allergy';
import {
  NOT_KNOWN,
  allergyFormSchema,
  allergyFormValues,
  criticalityOptions,
  severityOptions,
  type AllergyFormValues,
} from '../utils/allergy-form';
import { AlertMessage } from '../../../components/ui/alert-message';
import { translateMessageText } from '../../../i18n/message-text';
import { RECORD_TEXTS } from '../utils/record-texts';

/** The dialog's texts in the reader's language. */
function useTexts() {
  const { t } = useLingui();
  return {
    addTitle: t(RECORD_TEXTS.allergies.add),
    editTitle: t(RECORD_TEXTS.allergies.edit),
    description: t`Substance is required; the rest is optional.`,
    substance: t`Substance`,
    substanceHint: t`A medicine, food or other substance, e.g. Penicillin or Peanuts.`,
    reactions: t`Reactions`,
    reactionsHint: t`What happens on contact, one reaction a box, e.g. Hives or Anaphylaxis.`,
    reaction: (n: number) => t`Reaction ${n}`,
    /** The Remove button's hidden rest: "Remove <reaction 2>". */
    reactionLower: (n: number) =>
      t({ message: `reaction ${n}`, comment: 'Hidden end of the button "Remove reaction 2", lower case in English' }),
    remove: t`Remove`,
    addReaction: t`Add reaction`,
    severity: t`Severity`,
    severityHint: t`How bad the reactions have been.`,
    criticality: t`Criticality`,
    criticalityHint: t`High: a future reaction could be life-threatening.`,
    cancel: t`Cancel`,
    saving: t`Saving...`,
    save: t`Save Changes`,
    failed: t(RECORD_TEXTS.allergies.saveFailed),
    notKnown: t(NOT_KNOWN),
    option: t,
  };
}

/** A shared schema's message (English) in the reader's language. */
const tr = (message: string | undefined) => (message === undefined ? undefined : translateMessageText(message));

export interface AllergyFormModalProps {
  personId: string;
  /** The entry to edit; null to add one. */
  allergy: Allergy | null;
  onClose: () => void;
}

/**
 * Adds or edits one allergy (docs/decisions/0053): the substance, its reactions as a list that
 * grows and shrinks, severity and criticality, each of those two "Not known" unless chosen. The
 * form is checked with the shared input schema before anything is sent; the server's message is
 * shown on success (a toast) and on failure (in the dialog, announced).
 */
export function AllergyFormModal({ personId, allergy, onClose }: AllergyFormModalProps) {
  const TEXTS = useTexts();
  const formId = useId();
  const reactionsId = useId();
  const addReactionRef = useRef<HTMLButtonElement>(null);
  const save = useSaveAllergy(personId);
  const [failure, setFailure] = useState<string | null>(null);
  const [initial] = useState(() => allergyFormValues(allergy));
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AllergyFormValues, unknown, AllergyInput>({ resolver: zodResolver(allergyFormSchema), defaultValues: initial });
  const reactions = useFieldArray({ control, name: 'reactions' });

  const onSubmit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      const { message } = await save.mutateAsync({ id: allergy?.id, input });
      notify.success(message);
      onClose();
    } catch (error) {
      setFailure(serverMessage(error) ?? TEXTS.failed);
    }
  });

  const title = allergy ? TEXTS.editTitle : TEXTS.addTitle;
  const listError = tr(errors.reactions?.message ?? errors.reactions?.root?.message);
  return (
    <Modal
      open
      onClose={isSubmitting ? () => undefined : onClose}
      closeOnBackdrop={!isSubmitting}
      title={title}
      description={TEXTS.description}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            {TEXTS.cancel}
          </Button>
          <Button type="submit" form={formId} disabled={isSubmitting}>
            {isSubmitting ? TEXTS.saving : allergy ? TEXTS.save : title}
          </Button>
        </>
      }
    >
      {/* noValidate: the checks are the shared schema's, with messages tied to each field. */}
      <form id={formId} onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-busy={isSubmitting}>
        <Field
          label={TEXTS.substance}
          autoComplete="off"
          required
          hint={TEXTS.substanceHint}
          error={tr(errors.substance?.message)}
          containerClassName="sm:col-span-2"
          {...register('substance')}
        />
        <fieldset className="flex flex-col gap-2 sm:col-span-2" aria-describedby={`${reactionsId}-hint`}>
          <legend className="text-sm font-medium text-slate-800">{TEXTS.reactions}</legend>
          <p id={`${reactionsId}-hint`} className="text-sm text-slate-600">
            {TEXTS.reactionsHint}
          </p>
          {reactions.fields.length > 0 ? (
            <ol className="flex flex-col gap-2">
              {reactions.fields.map((field, index) => (
                <li key={field.id} className="flex items-end gap-2">
                  <Field
                    label={TEXTS.reaction(index + 1)}
                    autoComplete="off"
                    containerClassName="min-w-0 flex-1"
                    error={tr(errors.reactions?.[index]?.text?.message ?? errors.reactions?.[index]?.message)}
                    {...register(`reactions.${index}.text`)}
                  />
                  <Button
                    variant="secondary"
                    className="mb-px"
                    onClick={() => {
                      reactions.remove(index);
                      // The button is gone with its box: keep the keyboard in the list.
                      requestAnimationFrame(() => addReactionRef.current?.focus());
                    }}
                  >
                    {TEXTS.remove} <span className="sr-only">{TEXTS.reactionLower(index + 1)}</span>
                  </Button>
                </li>
              ))}
            </ol>
          ) : null}
          {listError ? <p className="text-sm font-medium text-red-700">{listError}</p> : null}
          <div>
            <Button
              ref={addReactionRef}
              variant="secondary"
              size="sm"
              // The new box takes the focus (react-hook-form's append).
              onClick={() => reactions.append({ text: '' })}
            >
              {TEXTS.addReaction}
            </Button>
          </div>
        </fieldset>
        <SelectField label={TEXTS.severity} hint={TEXTS.severityHint} error={tr(errors.severity?.message)} {...register('severity')}>
          <option value="">{TEXTS.notKnown}</option>
          {severityOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {TEXTS.option(o.label)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={TEXTS.criticality}
          hint={TEXTS.criticalityHint}
          error={tr(errors.criticality?.message)}
          {...register('criticality')}
        >
          <option value="">{TEXTS.notKnown}</option>
          {criticalityOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {TEXTS.option(o.label)}
            </option>
          ))}
        </SelectField>
        {failure ? <AlertMessage className="text-sm sm:col-span-2">{failure}</AlertMessage> : null}
      </form>
    </Modal>
  );
}
