import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useLingui } from '@lingui/react/macro';
import { changePasswordSchema } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { translateMessageText } from '../../../i18n/message-text';
import { useChangePassword } from '../api/change-password';

// SPEC §5: the new password and its confirmation must match, otherwise 'New passwords do not match'.
const PASSWORDS_DIFFER = 'New passwords do not match';
const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORDS_DIFFER,
  });
type ChangePasswordFormInput = z.input<typeof changePasswordFormSchema>;
type ChangePasswordFormOutput = z.output<typeof changePasswordFormSchema>;

const EMPTY: ChangePasswordFormInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Settings → Account Settings → Change Password (SPEC §2, §7 PUT /api/auth/changePassword). */
export function ChangePasswordForm() {
  const { t } = useLingui();
  const change = useChangePassword();
  // The shared schema's messages, and this form's own, in the reader's language.
  const fieldError = (message: string | undefined) =>
    message === undefined ? undefined : message === PASSWORDS_DIFFER ? t`New passwords do not match` : translateMessageText(message);
  const [status, setStatus] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordFormInput, unknown, ChangePasswordFormOutput>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit(
    async ({ currentPassword, newPassword }) => {
      setStatus(null);
      try {
        const answer = await change.mutateAsync({ currentPassword, newPassword });
        reset(EMPTY);
        setStatus(serverText(answer) ?? t`Password updated successfully`);
      } catch (error) {
        setStatus(errorMessage(error, t`Failed to update password`));
      }
    },
    () => setStatus(null),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={isSubmitting} className="flex max-w-md flex-col gap-4">
      <Field
        label={t`Current Password`}
        type="password"
        autoComplete="current-password"
        error={fieldError(errors.currentPassword?.message)}
        {...register('currentPassword')}
      />
      <Field
        label={t`New Password`}
        type="password"
        autoComplete="new-password"
        error={fieldError(errors.newPassword?.message)}
        {...register('newPassword')}
      />
      <Field
        label={t`Confirm New Password`}
        type="password"
        autoComplete="new-password"
        error={fieldError(errors.confirmPassword?.message)}
        {...register('confirmPassword')}
      />
      <StatusMessage message={status} />
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? t`Updating...` : t`Update Password`}
        </Button>
      </div>
    </form>
  );
}
