import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { todayIsoDate } from '@kinchart/shared/common';
import { familyAddSchema, PET_FIELD_NAMES, type FamilyAddInput } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { useAddFamilyMember } from '../api/add-family-member';
import { errorMessage } from '../../../lib/api-client';
import { CheckboxField, SelectField } from '../../../components/ui/form-controls';
import { StatusMessage } from '../../../components/ui/status-message';
import { relationshipOptions } from '../lib/relationships';
import { fieldError } from '../lib/field-error';
import { translateMessageText } from '../../../i18n/message-text';
import { PetFields } from './pet-fields';

type FamilyAddOutput = ReturnType<typeof familyAddSchema.parse>;

/** A person is sent without the pet fields (docs/decisions/0037: they are a pet's only). */
function addBody(values: FamilyAddOutput): FamilyAddInput {
  if (values.is_pet) return values;
  const body: Record<string, unknown> = { ...values };
  for (const key of PET_FIELD_NAMES) delete body[key];
  return body as FamilyAddInput;
}

export interface AddFamilyMemberModalProps {
  open: boolean;
  onClose: () => void;
  /** Called with the server's message once the member exists. */
  onAdded?: (message: string) => void;
}

/** SPEC §2 'Add Family Member' modal; a fresh form every time it opens. */
export function AddFamilyMemberModal({ open, onClose, onAdded }: AddFamilyMemberModalProps) {
  if (!open) return null;
  return <AddFamilyMemberDialog onClose={onClose} onAdded={onAdded} />;
}

function AddFamilyMemberDialog({ onClose, onAdded }: Omit<AddFamilyMemberModalProps, 'open'>) {
  const { t } = useLingui();
  const formId = useId();
  const add = useAddFamilyMember();
  const [status, setStatus] = useState<string | null>(null);
  const form = useForm<FamilyAddInput, unknown, FamilyAddOutput>({
    resolver: zodResolver(familyAddSchema),
    defaultValues: {
      name: '',
      date_of_birth: '',
      relationship: '',
      is_pet: false,
      species: '',
      breed: '',
      microchip_number: '',
      vet_name: '',
      vet_phone: '',
    },
  });
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = form;
  const isPet = useWatch({ control, name: 'is_pet' }) === true;

  // SPEC §5: name, date of birth and relationship are required; is_pet is optional.
  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    try {
      // SPEC §7: 201 is success.
      const answer = await add.mutateAsync(addBody(values));
      onAdded?.(answer.message ? translateMessageText(answer.message) : t`Family member added successfully!`);
      onClose();
    } catch (error) {
      setStatus(errorMessage(error, t`Error adding family member`));
    }
  });

  return (
    <Modal
      open
      onClose={isSubmitting ? () => undefined : onClose}
      title={t`Add Family Member`}
      description={t`Add a family member or a pet. You can fill in their health details afterwards.`}
      closeOnBackdrop={!isSubmitting}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" form={formId} disabled={isSubmitting}>
            {isSubmitting ? t`Adding...` : t`Add Member`}
          </Button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <Field label={t`Name`} autoComplete="off" aria-required="true" error={fieldError(errors.name)} {...register('name')} />
          <Field
            label={t`Date of Birth`}
            type="date"
            max={todayIsoDate()}
            aria-required="true"
            error={fieldError(errors.date_of_birth)}
            {...register('date_of_birth')}
          />
          <SelectField label={t`Relationship`} aria-required="true" error={fieldError(errors.relationship)} {...register('relationship')}>
            <option value="">{t`Select relationship`}</option>
            {relationshipOptions('', t).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
          <CheckboxField label={t`This is a pet`} {...register('is_pet')} />
          {isPet ? <PetFields /> : null}
          <StatusMessage message={status} />
        </form>
      </FormProvider>
    </Modal>
  );
}
