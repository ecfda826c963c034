import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { LoginResponse } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { serverMessage } from '../../../lib/api-client';
import { browserHasPasskeys } from '../../../lib/passkeys';
import { clientConfigQueryOptions } from '../../../lib/queries/client-config';
import { usePasskeyLogin } from '../api/passkey-login';

/**
 * "Sign in with a passkey" under the login form (docs/decisions/0027): a discoverable passkey
 * signs in alone, with no email to type. Loaded after /login has painted (decision 0017) and shown
 * only where it can work: this browser has WebAuthn and the server is reached by a domain name.
 */
export default function PasskeySignIn(props: PasskeySignInProps) {
  return browserHasPasskeys() ? <PasskeyButton {...props} /> : null;
}

interface PasskeySignInProps {
  onSignedIn: (answer: LoginResponse) => Promise<void>;
}

function PasskeyButton({ onSignedIn }: PasskeySignInProps) {
  const config = useQuery(clientConfigQueryOptions);
  const login = usePasskeyLogin();
  const [error, setError] = useState<string | null>(null);
  if (config.data?.passkeys !== true) return null;

  const signIn = async () => {
    setError(null);
    try {
      await onSignedIn(await login.mutateAsync());
    } catch (failure) {
      setError(serverMessage(failure) ?? (failure instanceof Error ? failure.message : 'An error occurred'));
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <p className="flex items-center gap-3 text-sm text-slate-700 before:h-px before:flex-1 before:bg-slate-300 after:h-px after:flex-1 after:bg-slate-300">
        or
      </p>
      <Button variant="secondary" size="lg" onClick={() => void signIn()} disabled={login.isPending}>
        {login.isPending ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </Button>
      {error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
