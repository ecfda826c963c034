import { useId, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { Trans, useLingui } from '@lingui/react/macro';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ClinicalKind } from '@kinchart/shared/clinical';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { SelectField, TextareaField } from '../../../components/ui/form-controls';
import { isPartialDate } from '../utils/clinical-text';
import { Modal } from '../../../components/ui/modal';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import type { ClinicalInputs, ClinicalItem } from '../api/clinical-paths';
import { useSaveClinicalItem } from '../api/save-clinical-item';
import { FORMS, type ClinicalFormValues, type FieldSpec } from '../utils/clinical-forms';
import { AlertMessage } from '../../../components/ui/alert-message';
import { translateMessageText } from '../../../i18n/message-text';
import { RECORD_TEXTS } from '../utils/record-texts';

export interface ClinicalFormModalProps<K extends ClinicalKind> {
  kind: K;
  personId: string;
  /** The item to edit; null to add one. */
  item: ClinicalItem<K> | null;
  onClose: () => void;
}

/**
 * The message under a field: its own, or one the shared schema files under a name it stands for;
 * in the reader's language (the shared schema's messages are English).
 */
function errorFor(errors: FieldErrors<ClinicalFormValues>, field: FieldSpec): string | undefined {
  for (const name of [field.name, ...(field.alsoShows ?? [])]) {
    const message = errors[name]?.message;
    if (typeof message === 'string') return translateMessageText(message);
  }
  return undefined;
}

/**
 * Adds or edits one item of a kind, the fields from utils/clinical-forms. The form is checked
 * with the shared input schema before anything is sent; the server's message is shown on success
 * (a toast) and on failure (in the dialog, announced).
 */
export function ClinicalFormModal<K extends ClinicalKind>({ kind, personId, item, onClose }: ClinicalFormModalProps<K>) {
  const spec = FORMS[kind];
  const formId = useId();
  const save = useSaveClinicalItem(personId, kind);
  const [failure, setFailure] = useState<string | null>(null);
  const { t } = useLingui();
  const texts = RECORD_TEXTS[kind];
  const mode = item ? 'edit' : 'add';

  const [initial] = useState(() => spec.valuesOf(item));
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ClinicalFormValues, unknown, ClinicalInputs[K]>({
    resolver: zodResolver(spec.schema),
    defaultValues: initial,
  });

  const onSubmit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      const { message } = await save.mutateAsync({ id: item?.id, input });
      notify.success(message);
      onClose();
    } catch (error) {
      setFailure(serverMessage(error) ?? t(texts.saveFailed));
    }
  });

  const title = t(mode === 'add' ? texts.add : texts.edit);
  return (
    <Modal
      open
      onClose={isSubmitting ? () => undefined : onClose}
      closeOnBackdrop={!isSubmitting}
      title={title}
      description={t(spec.requiredNote)}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" form={formId} disabled={isSubmitting}>
            {isSubmitting ? t`Saving...` : mode === 'add' ? title : t`Save Changes`}
          </Button>
        </>
      }
    >
      {/* noValidate: the checks are the shared schema's, with messages tied to each field. */}
      <form id={formId} onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-busy={isSubmitting}>
        {spec.fields.map((field) => {
          const label = t(field.label);
          const common = {
            error: errorFor(errors, field),
            hint: field.hint ? t(field.hint) : undefined,
            containerClassName: field.wide ? 'sm:col-span-2' : '',
            ...register(field.name),
          };
          switch (field.control) {
            case 'select':
              return (
                <SelectField key={field.name} label={label} {...common}>
                  {(field.options ?? []).map((option) => (
                    <option key={option.value} value={option.value}>
                      {t(option.label)}
                    </option>
                  ))}
                </SelectField>
              );
            case 'textarea':
              return <TextareaField key={field.name} label={label} {...common} />;
            case 'date':
            case 'text':
              // A date field, unless the item's date is partial (YYYY, YYYY-MM): a date field would empty it.
              if (field.control === 'date' && !isPartialDate(initial[field.name] ?? '')) {
                return <Field key={field.name} label={label} type="date" required={field.required} {...common} hint={undefined} />;
              }
              return (
                <Field
                  key={field.name}
                  label={label}
                  autoComplete="off"
                  required={field.required}
                  placeholder={field.placeholder ? t(field.placeholder) : undefined}
                  inputMode={field.inputMode}
                  {...common}
                />
              );
          }
        })}
        {failure ? <AlertMessage className="text-sm sm:col-span-2">{failure}</AlertMessage> : null}
      </form>
    </Modal>
  );
}
