import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { SECOND_FACTOR_PARAM } from '@kinchart/shared/auth-texts';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { AlertMessage } from '../../../components/ui/alert-message';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { NEXT_PARAM, safeNextPath, withNext } from '../../../lib/next-path';
import { notify } from '../../../lib/toast';
import { useCompleteSsoLink, useSsoLink } from '../api/sso-link';
import { AuthFooterLink, AuthShell } from '../components/auth-shell';

/**
 * /link-account (docs/decisions/0030): single sign-on came back with a verified email that an
 * account here uses, but that account's email was never proven — anyone can sign up with any
 * address. Its password, once, shows the account is this person's; then the provider is linked
 * and signs them in directly from now on.
 */
export function LinkAccountPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get(NEXT_PARAM));
  const info = useSsoLink();
  const link = useCompleteSsoLink();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, reset, setFocus } = useForm<{ password: string }>({
    defaultValues: { password: '' },
    disabled: link.isPending,
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    setError(null);
    try {
      const answer = await link.mutateAsync({ password });
      if ('mfa_required' in answer) {
        // The login page's second step finishes it (the pending login is in an HttpOnly cookie).
        const step = new URLSearchParams({ [SECOND_FACTOR_PARAM]: answer.methods.join(',') });
        if (next) step.set(NEXT_PARAM, next);
        await navigate(`/login?${step.toString()}`, { replace: true });
        return;
      }
      notify.success(serverText(answer) ?? t`Login successful.`);
      await navigate(next ?? '/dashboard', { replace: true });
    } catch (failure) {
      reset({ password: '' });
      setError(errorMessage(failure, t`Your account could not be linked. Please try again.`));
      setFocus('password');
    }
  });

  let body;
  if (info.isPending) {
    body = (
      <p role="status">
        <Trans>Loading...</Trans>
      </p>
    );
  } else if (info.isError) {
    body = <AlertMessage>{errorMessage(info.error, t`This sign-in can no longer be finished. Please sign in again.`)}</AlertMessage>;
  } else {
    const { email, provider } = info.data;
    body = (
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4" aria-busy={link.isPending}>
        <p className="text-slate-700">
          <Trans>
            <span className="font-medium break-all text-slate-900">{email}</span> is the email of an account here, and {provider} says it is
            yours. Enter that account’s password once to link {provider} to it; after that, {provider} signs you in directly.
          </Trans>
        </p>
        <Field label={t`Password`} type="password" autoComplete="current-password" {...register('password', { required: true })} />
        <p className="text-sm">
          <AuthFooterLink to="/forgot-password">
            <Trans>Forgot password?</Trans>
          </AuthFooterLink>
        </p>
        <Button type="submit" size="lg" disabled={link.isPending}>
          {link.isPending ? t`Linking...` : t`Link and sign in`}
        </Button>
        {error ? <AlertMessage>{error}</AlertMessage> : null}
      </form>
    );
  }

  return (
    <AuthShell
      title={t`Link your account`}
      intro={t`An account here already uses your email address.`}
      footer={
        <p>
          <AuthFooterLink to={withNext('/login', next)}>
            <Trans>Back to login</Trans>
          </AuthFooterLink>
        </p>
      }
    >
      {body}
    </AuthShell>
  );
}
