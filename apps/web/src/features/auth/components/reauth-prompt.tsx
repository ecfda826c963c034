import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useLingui } from '@lingui/react/macro';
import { SSO_CONFIRMED_PARAM, SSO_CONFIRMED_VALUE, SSO_ERROR_PARAM } from '@kinchart/shared/auth-texts';
import { ReauthDialog } from '../../../components/ui/reauth-dialog';
import { ApiError, errorMessage, onReauthRequired, serverMessage } from '../../../lib/api-client';
import { browserHasPasskeys, provePasskey } from '../../../lib/passkeys';
import { notify } from '../../../lib/toast';
import { mfaQueryOptions } from '../api/get-mfa-status';
import { clearSession } from '../api/check-auth';
import { reauthenticate } from '../api/reauth';
import { useSsoName } from '../api/sign-in-options';
import { ssoErrorMessage } from '../utils/sso-error-text';
import { SsoReauth } from './sso-reauth';

/**
 * The signed-in app's answer to "please confirm your password" (docs/decisions/0024), by password
 * or passkey (decision 0027): any API call
 * that meets it waits while this dialog asks, then is sent again. Calls that meet it together share
 * one prompt. Too many wrong passwords end the session on the server: then the app signs out.
 * With single sign-on the prompt also offers the provider (docs/decisions/0029); that way leaves the
 * page and comes back to it with `?sso=confirmed` (or `?sso_error=`), said here once.
 */
export function ReauthPrompt() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // The one prompt in progress: its promise, handed to every call that waits, and how it ends.
  const pending = useRef<{ promise: Promise<boolean>; settle: (confirmed: boolean) => void } | null>(null);
  const ssoName = useSsoName(open);
  const [params, setParams] = useSearchParams();
  const ssoConfirmed = params.get(SSO_CONFIRMED_PARAM) === SSO_CONFIRMED_VALUE;
  const ssoError = ssoErrorMessage(params.get(SSO_ERROR_PARAM));

  // Back from the provider: say how it went, once, and take the marks out of the address.
  useEffect(() => {
    if (!ssoConfirmed && !ssoError) return;
    if (ssoConfirmed) notify.success(t`Confirmed. Please try that again: you will not be asked for 10 minutes.`);
    else if (ssoError) notify.error(ssoError);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(SSO_CONFIRMED_PARAM);
        next.delete(SSO_ERROR_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [ssoConfirmed, ssoError, setParams, t]);

  useEffect(() => {
    const unregister = onReauthRequired(() => {
      if (!pending.current) {
        let settle: (confirmed: boolean) => void = () => undefined;
        const promise = new Promise<boolean>((resolve) => {
          settle = resolve;
        });
        pending.current = { promise, settle };
        setOpen(true);
      }
      return pending.current.promise;
    });
    return () => {
      unregister();
      // Leaving the signed-in pages: calls still waiting end as not confirmed.
      pending.current?.settle(false);
      pending.current = null;
    };
  }, []);

  const finish = (confirmed: boolean) => {
    setOpen(false);
    pending.current?.settle(confirmed);
    pending.current = null;
  };

  // A passkey answers the prompt too, when the account has one and this browser can use it (decision 0027).
  const mfa = useQuery({ ...mfaQueryOptions, enabled: open && browserHasPasskeys() });
  const hasPasskey = (mfa.data?.passkeys.length ?? 0) > 0;

  const onConfirm = (password: string) => confirmWith(() => reauthenticate({ password }));
  const onPasskey = async () => {
    // The browser's own failures (cancelled, no passkey here) reach the dialog as they are.
    const passkey = await provePasskey('/api/auth/reauth/options');
    await confirmWith(() => reauthenticate({ passkey }));
  };

  const confirmWith = async (prove: () => Promise<unknown>) => {
    try {
      await prove();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 429 || error.status === 401)) {
        // The session is over (too many wrong passwords, or it expired meanwhile): sign out.
        finish(false);
        notify.error(serverMessage(error) ?? t`Your session has ended. Please sign in again.`);
        clearSession(queryClient);
        return;
      }
      throw new Error(
        errorMessage(
          error,
          t`Your password could not be confirmed. Please try again.`,
          t`Your password could not be checked. Check the connection and try again.`,
        ),
      );
    }
    finish(true);
  };

  return (
    <ReauthDialog
      open={open}
      onConfirm={onConfirm}
      onCancel={() => finish(false)}
      onPasskey={hasPasskey ? onPasskey : undefined}
      alternative={ssoName ? <SsoReauth name={ssoName} /> : null}
    />
  );
}
