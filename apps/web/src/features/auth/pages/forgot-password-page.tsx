import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { PASSWORD_RESET_TTL_MINUTES, forgotPasswordSchema } from '@kinchart/shared/auth';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { translateMessageText } from '../../../i18n/message-text';
import { useForgotPassword } from '../api/forgot-password';
import { AuthFooterLink, AuthShell } from '../components/auth-shell';
import { AlertMessage } from '../../../components/ui/alert-message';

type ForgotPasswordFormInput = z.input<typeof forgotPasswordSchema>;
type ForgotPasswordFormOutput = z.output<typeof forgotPasswordSchema>;

/**
 * /forgot-password (docs/decisions/0025): asks for the account's email and then says the same
 * thing whatever the server knows of it — the server's one answer does not tell either.
 */
export function ForgotPasswordPage() {
  const { t } = useLingui();
  const forgot = useForgotPassword();
  const minutes = PASSWORD_RESET_TTL_MINUTES;
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordFormInput, unknown, ForgotPasswordFormOutput>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const answer = await forgot.mutateAsync(values);
      // The English words are the shared FORGOT_PASSWORD_ANSWER.
      setSent(serverText(answer) ?? t`If an account uses this email, a link to reset its password is on its way.`);
    } catch (failure) {
      setError(errorMessage(failure, t`The request could not be sent. Please try again.`));
    }
  });

  return (
    <AuthShell
      title={t`Forgot your password?`}
      intro={t`Enter the email of your account and we will send you a link to choose a new password.`}
      footer={
        <>
          <p>
            <Trans>
              Remembered it? <AuthFooterLink to="/login">Back to login</AuthFooterLink>
            </Trans>
          </p>
          <p>
            <AuthFooterLink to="/">
              <Trans>Go Home</Trans>
            </AuthFooterLink>
          </p>
        </>
      }
    >
      <div role="status" aria-live="polite">
        {sent ? (
          <div className="flex flex-col gap-2 rounded-lg bg-green-50 px-4 py-3 text-green-900">
            <p className="font-medium">{sent}</p>
            <p className="text-sm">
              <Trans>
                The link works once, for {minutes} minutes. If nothing arrives, check your spam folder, or ask the person who runs this
                Kinchart server.
              </Trans>
            </p>
          </div>
        ) : null}
      </div>
      {sent ? null : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={isSubmitting}>
          <Field
            label={t`Email`}
            type="email"
            autoComplete="email"
            error={errors.email?.message === undefined ? undefined : translateMessageText(errors.email.message)}
            {...register('email')}
          />
          <Button type="submit" size="lg" disabled={isSubmitting}>
            {isSubmitting ? t`Sending...` : t`Send reset link`}
          </Button>
          {error ? <AlertMessage>{error}</AlertMessage> : null}
        </form>
      )}
    </AuthShell>
  );
}
