import { useState } from 'react';
import type { LoginResponse } from '@kinchart/shared/auth';
import { useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { serverMessage } from '../../../lib/api-client';
import { usePasskeyLogin } from '../api/passkey-login';
import { AlertMessage } from '../../../components/ui/alert-message';

/**
 * "Sign in with a passkey" under the login form (docs/decisions/0027): a discoverable passkey
 * signs in alone, with no email to type. Shown only where it can work: this browser has WebAuthn
 * and the server is reached by a domain name (login-page.tsx asks). The WebAuthn library itself
 * loads at the first press (lib/passkeys.ts), so /login stays small (decision 0017).
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: (answer: LoginResponse) => Promise<void> }) {
  const { t } = useLingui();
  const login = usePasskeyLogin();
  const [error, setError] = useState<string | null>(null);

  const signIn = async () => {
    setError(null);
    try {
      await onSignedIn(await login.mutateAsync());
    } catch (failure) {
      setError(serverMessage(failure) ?? (failure instanceof Error ? failure.message : t`An error occurred`));
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <Button variant="secondary" size="lg" onClick={() => void signIn()} disabled={login.isPending}>
        {login.isPending ? t`Waiting for your passkey...` : t`Sign in with a passkey`}
      </Button>
      {error ? <AlertMessage>{error}</AlertMessage> : null}
    </div>
  );
}
