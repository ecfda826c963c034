import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useSearchParams } from 'react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { PASSWORD_MAX, PASSWORD_MIN, resetPasswordSchema } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { translateMessageText } from '../../../i18n/message-text';
import { useResetLinkStatus, useResetPassword } from '../api/reset-password';
import { AuthFooterLink, AuthShell } from '../components/auth-shell';
import { AlertMessage } from '../../../components/ui/alert-message';

// The sign-up password rules (the shared schema) and SPEC §5's confirmation message.
const PASSWORDS_DIFFER = 'New passwords do not match';
const resetPasswordFormSchema = resetPasswordSchema
  .pick({ newPassword: true })
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORDS_DIFFER,
  });
type ResetPasswordFormInput = z.input<typeof resetPasswordFormSchema>;
type ResetPasswordFormOutput = z.output<typeof resetPasswordFormSchema>;

/**
 * /reset-password?token=… (docs/decisions/0025): the link from the email (or from the operator)
 * sets a new password under the sign-up rules. The server then ends every session; the next
 * login still asks for a second factor when the account has one.
 */
export function ResetPasswordPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  // The shared schema's messages, and this form's own, in the reader's language.
  const fieldError = (message: string | undefined) =>
    message === undefined ? undefined : message === PASSWORDS_DIFFER ? t`New passwords do not match` : translateMessageText(message);
  const min = PASSWORD_MIN;
  const max = PASSWORD_MAX;
  // Asked as the page opens: a used or expired link is said before anyone types a password twice.
  const link = useResetLinkStatus(token, reset.isIdle || reset.isError);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordFormInput, unknown, ResetPasswordFormOutput>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ newPassword }) => {
    setError(null);
    try {
      const answer = await reset.mutateAsync({ token, newPassword });
      setDone(serverText(answer) ?? answer.message);
    } catch (failure) {
      setError(errorMessage(failure, t`The password could not be reset. Please try again.`));
    }
  });

  // Once the password is set, the way on is the login link above; asking for another link is not.
  const footer = done ? (
    <p>
      <AuthFooterLink to="/">
        <Trans>Go Home</Trans>
      </AuthFooterLink>
    </p>
  ) : (
    <>
      <p>
        <Trans>
          Need a new link? <AuthFooterLink to="/forgot-password">Ask for one</AuthFooterLink>
        </Trans>
      </p>
      <p>
        <AuthFooterLink to="/login">
          <Trans>Back to login</Trans>
        </AuthFooterLink>
      </p>
    </>
  );

  let body;
  if (!token) {
    body = (
      <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 font-medium text-amber-900">
        <Trans>This password reset link is incomplete. Please open the whole link from the email, or ask for a new one.</Trans>
      </p>
    );
  } else if (link.isPending && reset.isIdle) {
    body = (
      <p role="status" className="text-slate-700">
        <Trans>Checking your link...</Trans>
      </p>
    );
  } else if (link.isError && reset.isIdle) {
    body = <AlertMessage>{errorMessage(link.error, t`This password reset link cannot be used. Please ask for a new one.`)}</AlertMessage>;
  } else {
    body = (
      <>
        <div role="status" aria-live="polite">
          {done ? <p className="rounded-lg bg-green-50 px-3 py-2 font-medium text-green-800">{done}</p> : null}
        </div>
        {done ? (
          <p className="mt-4">
            <AuthFooterLink to="/login">
              <Trans>Go to login</Trans>
            </AuthFooterLink>
          </p>
        ) : (
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={isSubmitting}>
            <Field
              label={t`New Password`}
              type="password"
              autoComplete="new-password"
              hint={t`${min}–${max} characters, and not a common password.`}
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
            <Button type="submit" size="lg" disabled={isSubmitting}>
              {isSubmitting ? t`Saving...` : t`Set new password`}
            </Button>
            {error ? <AlertMessage>{error}</AlertMessage> : null}
          </form>
        )}
      </>
    );
  }

  return (
    <AuthShell
      title={t`Choose a new password`}
      intro={t`This signs your account out everywhere. Your second factor, if you use one, stays as it is.`}
      footer={footer}
    >
      {body}
    </AuthShell>
  );
}
