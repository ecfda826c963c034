import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { changeEmailSchema, type ChangeEmailInput } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { translateMessageText } from '../../../i18n/message-text';
import { useChangeEmail } from '../api/change-email';

const EMPTY = { newEmail: '', password: '' };

/** Settings → Account Settings → Change Email Address (SPEC §2, §5: a valid email and the password). */
export function ChangeEmailForm({ currentEmail }: { currentEmail?: string | undefined }) {
  const { t } = useLingui();
  const change = useChangeEmail();
  const fieldError = (message: string | undefined) => (message === undefined ? undefined : translateMessageText(message));
  const [status, setStatus] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangeEmailInput>({ resolver: zodResolver(changeEmailSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit(
    async (values) => {
      setStatus(null);
      try {
        const answer = await change.mutateAsync(values);
        reset(EMPTY);
        setStatus(serverText(answer) ?? t`Email updated successfully`);
      } catch (error) {
        setStatus(errorMessage(error, t`Failed to update email`));
      }
    },
    () => setStatus(null),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={isSubmitting} className="flex max-w-md flex-col gap-4">
      {currentEmail ? (
        <p className="text-sm text-slate-700">
          <Trans>
            Current email: <span className="font-medium break-all text-slate-900">{currentEmail}</span>
          </Trans>
        </p>
      ) : null}
      <Field
        label={t`New Email`}
        type="email"
        autoComplete="email"
        error={fieldError(errors.newEmail?.message)}
        {...register('newEmail')}
      />
      <Field
        label={t`Password`}
        type="password"
        autoComplete="current-password"
        hint={t`Enter your password to confirm the change.`}
        error={fieldError(errors.password?.message)}
        {...register('password')}
      />
      <StatusMessage message={status} />
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? t`Updating...` : t`Update Email`}
        </Button>
      </div>
    </form>
  );
}
