import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FORGOT_PASSWORD_ANSWER, PASSWORD_RESET_TTL_MINUTES, forgotPasswordSchema } from '@kinchart/shared/auth';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
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
  const forgot = useForgotPassword();
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
      setSent(answer.message || FORGOT_PASSWORD_ANSWER);
    } catch (failure) {
      setError(errorMessage(failure, 'The request could not be sent. Please try again.'));
    }
  });

  return (
    <AuthShell
      title="Forgot your password?"
      intro="Enter the email of your account and we will send you a link to choose a new password."
      footer={
        <>
          <p>
            Remembered it? <AuthFooterLink to="/login">Back to login</AuthFooterLink>
          </p>
          <p>
            <AuthFooterLink to="/">Go Home</AuthFooterLink>
          </p>
        </>
      }
    >
      <div role="status" aria-live="polite">
        {sent ? (
          <div className="flex flex-col gap-2 rounded-lg bg-green-50 px-4 py-3 text-green-900">
            <p className="font-medium">{sent}</p>
            <p className="text-sm">
              The link works once, for {PASSWORD_RESET_TTL_MINUTES} minutes. If nothing arrives, check your spam folder, or ask the person
              who runs this Kinchart server.
            </p>
          </div>
        ) : null}
      </div>
      {sent ? null : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={isSubmitting}>
          <Field label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
          <Button type="submit" size="lg" disabled={isSubmitting}>
            {isSubmitting ? 'Sending...' : 'Send reset link'}
          </Button>
          {error ? <AlertMessage>{error}</AlertMessage> : null}
        </form>
      )}
    </AuthShell>
  );
}
