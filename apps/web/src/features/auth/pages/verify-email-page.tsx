import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { AlertMessage } from '../../../components/ui/alert-message';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { useVerifyEmail } from '../api/verify-email';
import { AuthFooterLink, AuthShell } from '../components/auth-shell';

/**
 * /verify-email?token=… (docs/decisions/0030): the emailed link proves the address is the
 * account's. Opening the page changes nothing (DESIGN §5: no state changes on GET, and mail
 * scanners follow links); the person's press of the button does. No sign-in is needed.
 */
export function VerifyEmailPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setError(null);
    try {
      const answer = await verify.mutateAsync({ token });
      setDone(serverText(answer) ?? answer.message);
    } catch (failure) {
      setError(errorMessage(failure, t`Your email could not be confirmed. Please try again.`));
    }
  };

  let body;
  if (!token) {
    body = (
      <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 font-medium text-amber-900">
        <Trans>This confirmation link is incomplete. Please open the whole link from the email.</Trans>
      </p>
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        <div role="status" aria-live="polite">
          {done ? <p className="rounded-lg bg-green-50 px-3 py-2 font-medium text-green-800">{done}</p> : null}
        </div>
        {done ? null : (
          <>
            <p className="text-slate-700">
              <Trans>Press the button only if you made a Kinchart account with this email address, or moved yours to it.</Trans>
            </p>
            <div>
              <Button size="lg" onClick={() => void confirm()} disabled={verify.isPending} aria-busy={verify.isPending}>
                {verify.isPending ? t`Confirming...` : t`Confirm my email`}
              </Button>
            </div>
            {error ? <AlertMessage>{error}</AlertMessage> : null}
          </>
        )}
      </div>
    );
  }

  return (
    <AuthShell
      title={t`Confirm your email address`}
      intro={t`Confirming tells this server the address is yours. You can use Kinchart either way.`}
      footer={
        <>
          <p>
            <AuthFooterLink to="/dashboard">
              <Trans>Go to your dashboard</Trans>
            </AuthFooterLink>
          </p>
          <p>
            <AuthFooterLink to="/">
              <Trans>Go Home</Trans>
            </AuthFooterLink>
          </p>
        </>
      }
    >
      {body}
    </AuthShell>
  );
}
