import { useState } from 'react';
import { useLocation } from 'react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { SSO_CONFIRMED_PARAM, SSO_ERROR_PARAM } from '@kinchart/shared/auth-texts';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { safeNextPath } from '../../../lib/next-path';
import { goToProvider, startSso } from '../api/sso-start';

/** This page's address without the marks an earlier return left on it. */
function thisPage(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(SSO_ERROR_PARAM);
  params.delete(SSO_CONFIRMED_PARAM);
  const query = params.toString();
  return safeNextPath(`${pathname}${query ? `?${query}` : ''}`) ?? '/dashboard';
}

/**
 * "Confirm with {OIDC_NAME}" in the re-authentication prompt (docs/decisions/0029): the provider
 * signs the person in again and sends them back to this page, where the session now counts as
 * recently authenticated. The action that asked is not sent again by itself — the page has been
 * left — so the person does it once more (ReauthPrompt says so on return).
 */
export function SsoReauth({ name }: { name: string }) {
  const { t } = useLingui();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const start = async () => {
    setFailure(null);
    setBusy(true);
    try {
      goToProvider(await startSso({ purpose: 'reauth', next: thisPage(location.pathname, location.search) }));
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

  return (
    <div className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-4">
      <p className="text-sm text-slate-700">
        <Trans>Or confirm with {name}: you come back to this page, then try again.</Trans>
      </p>
      <Button variant="secondary" onClick={() => void start()} disabled={busy} aria-busy={busy}>
        {busy ? t`Opening...` : t`Confirm with ${name}`}
      </Button>
      {failure ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-700">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
