import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { todayIsoDate } from '@kinchart/shared/common';
import { basicProfileSchema, type BasicProfileInput, type PatientProfile } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes-guard';
import { notify } from '../../../lib/toast';
import { useCompleteProfile } from '../api/complete-profile';
import { usePatientProfile } from '../../../lib/queries/patient-profile';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { translateMessageText } from '../../../i18n/message-text';
import { fieldError } from '../lib/field-error';

type BasicProfileOutput = ReturnType<typeof basicProfileSchema.parse>;

function CompleteProfileForm({ profile }: { profile: PatientProfile | undefined }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const complete = useCompleteProfile();
  const [status, setStatus] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<BasicProfileInput, unknown, BasicProfileOutput>({
    resolver: zodResolver(basicProfileSchema),
    defaultValues: {
      username: profile?.username ?? '',
      name: profile?.name ?? '',
      date_of_birth: profile?.date_of_birth ?? '',
      address: profile?.address ?? '',
      phone_number: profile?.phone_number ?? '',
    },
  });

  // Leaving with something typed but not saved asks first.
  const guard = useUnsavedChangesGuard(isDirty);

  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    try {
      const answer = await complete.mutateAsync(values);
      notify.success(answer.message ? translateMessageText(answer.message) : t`Profile updated successfully!`);
      guard.release();
      // SPEC §2: Complete Profile saves, then goes to /view-records.
      await navigate('/view-records');
    } catch (error) {
      setStatus(errorMessage(error, t`An error occurred`, t`Error updating profile`));
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-busy={isSubmitting}
      className="flex max-w-2xl flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <Field label={t`Username`} autoComplete="username" error={fieldError(errors.username)} {...register('username')} />
      <Field label={t`Name`} autoComplete="name" aria-required="true" error={fieldError(errors.name)} {...register('name')} />
      <Field
        label={t`Date of Birth`}
        type="date"
        max={todayIsoDate()}
        autoComplete="bday"
        error={fieldError(errors.date_of_birth)}
        {...register('date_of_birth')}
      />
      <Field label={t`Address`} autoComplete="street-address" error={fieldError(errors.address)} {...register('address')} />
      <Field
        label={t`Phone Number`}
        type="tel"
        dir="ltr"
        autoComplete="tel"
        error={fieldError(errors.phone_number)}
        {...register('phone_number')}
      />
      <StatusMessage message={status} />
      <div>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? t`Saving...` : t`Complete Profile`}
        </Button>
      </div>
      {guard.dialog}
    </form>
  );
}

/** /edit-profile — 'Complete Your Profile' (SPEC §2). */
export function EditProfilePage() {
  const { t } = useLingui();
  const profile = usePatientProfile();
  return (
    <>
      <PageHeader title={t`Complete Your Profile`} subtitle={t`A few details so your records and emergency information are yours.`} />
      {profile.isPending ? (
        <p role="status" className="py-8 text-slate-700">
          <Trans>Loading profile...</Trans>
        </p>
      ) : (
        // Filled in from the stored profile; a new account starts empty.
        <CompleteProfileForm profile={profile.data} />
      )}
    </>
  );
}
