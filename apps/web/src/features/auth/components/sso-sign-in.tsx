import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLingui } from '@lingui/react/macro';
import { SSO_ERROR_PARAM } from '@kinchart/shared/auth-texts';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useSsoName } from '../api/sign-in-options';
import { goToProvider, startSso } from '../api/sso-start';
import { ssoErrorMessage } from '../utils/sso-error-text';
import { AlertMessage } from '../../../components/ui/alert-message';

export interface SsoSignInProps {
  /** Where to land once signed in (a safe path on this site), else /dashboard. */
  next: string | null;
}

/**
 * "Sign in with {OIDC_NAME}" below the login form (docs/decisions/0029), shown only when the
 * server has a provider. It goes round the provider and comes back signed in, or to /login with
 * `?sso_error=` — whose words this shows too (role="alert", like the form's errors).
 */
export function SsoSignIn({ next }: SsoSignInProps) {
  const { t } = useLingui();
  const name = useSsoName();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const returned = ssoErrorMessage(params.get(SSO_ERROR_PARAM));
  const message = failure ?? returned;

  const start = async () => {
    setFailure(null);
    setBusy(true);
    try {
      goToProvider(await startSso({ purpose: 'login', ...(next ? { next } : {}) }));
    } catch (error) {
      setBusy(false);
      setFailure(
        errorMessage(
          error,
          t`Single sign-on could not start. Please try again.`,
          t`Single sign-on could not start. Check the connection and try again.`,
        ),
      );
    }
  };

  if (!name) {
    // Without a provider (or before the server has said) there is no button; words from a
    // failed return still show.
    return message ? <AlertMessage>{message}</AlertMessage> : null;
  }
  return (
    <div className="flex flex-col gap-4">
      <Button variant="secondary" size="lg" onClick={() => void start()} disabled={busy} aria-busy={busy}>
        {busy ? t`Opening...` : t`Sign in with ${name}`}
      </Button>
      {message ? <AlertMessage>{message}</AlertMessage> : null}
    </div>
  );
}
