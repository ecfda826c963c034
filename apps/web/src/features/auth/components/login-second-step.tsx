import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { LoginMfaInput, LoginResponse, MfaMethod } from '@kinchart/shared/auth';
import { LOGIN_EXPIRED_ERROR } from '@kinchart/shared/auth-texts';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { serverErrorField, serverMessage } from '../../../lib/api-client';
import { provePasskey } from '../../../lib/passkeys';
import { useLoginMfa } from '../api/login-mfa';
import { AlertMessage } from '../../../components/ui/alert-message';

/** Looks like the page's links (it changes the form, it goes nowhere); tall enough for a thumb. */
const LINK_BUTTON = 'min-h-9 text-start font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900';

export interface LoginSecondStepProps {
  methods: readonly MfaMethod[];
  /** Signed in, the authentication state already re-checked (SPEC §4 Login). */
  onSignedIn: (answer: LoginResponse) => Promise<void> | void;
  /** Back to email and password: asked for, or the 5 minutes are up (`message` says so). */
  onStartOver: (message?: string) => void;
}

/**
 * The second step of a login for an account with a second factor (docs/decisions/0026, 0027): a
 * passkey, a code from the authenticator app, or a recovery code instead. Checked here only for shape — the shared
 * schema's zod stays out of /login (decision 0017); the server checks again.
 */
export function LoginSecondStep({ methods, onSignedIn, onStartOver }: LoginSecondStepProps) {
  const { t } = useLingui();
  const promptId = useId();
  const verify = useLoginMfa();
  // The login answer lists the methods in the order to offer them: a passkey first when there is one.
  const [method, setMethod] = useState<MfaMethod>(methods[0] ?? 'recovery_code');
  const [value, setValue] = useState('');
  const [error, setError] = useState<{ text: string; attempt: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const passkeyButton = useRef<HTMLButtonElement>(null);
  const [proving, setProving] = useState(false);
  const busy = verify.isPending || proving;

  // The field is where the person goes next: on arrival, after switching method, after a failure.
  useEffect(() => {
    (input.current ?? passkeyButton.current)?.focus();
  }, [method, error]);

  const fail = (text: string) => setError((previous) => ({ text, attempt: (previous?.attempt ?? 0) + 1 }));

  const switchTo = (next: MfaMethod) => {
    setMethod(next);
    setValue('');
    setError(null);
  };

  const send = async (input: LoginMfaInput) => {
    setError(null);
    try {
      const answer = await verify.mutateAsync(input);
      await onSignedIn(answer);
    } catch (failure) {
      setValue('');
      if (serverErrorField(failure) === LOGIN_EXPIRED_ERROR) onStartOver(serverMessage(failure));
      else fail(serverMessage(failure) ?? (failure instanceof Error ? failure.message : t`An error occurred`));
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (method === 'passkey') {
      // The challenge belongs to this pending login; the browser's own failures are shown as they are.
      setProving(true);
      try {
        await send({ passkey: await provePasskey('/api/auth/login/mfa/options') });
      } catch (failure) {
        if (serverErrorField(failure) === LOGIN_EXPIRED_ERROR) onStartOver(serverMessage(failure));
        else fail(serverMessage(failure) ?? (failure instanceof Error ? failure.message : t`An error occurred`));
      } finally {
        setProving(false);
      }
      return;
    }
    const typed = method === 'totp' ? value.replace(/\s+/g, '') : value.trim();
    if (method === 'totp' ? !/^\d{6}$/.test(typed) : typed === '') {
      fail(method === 'totp' ? t`Enter the 6-digit code from your authenticator app` : t`Enter one of your recovery codes`);
      return;
    }
    await send(method === 'totp' ? { code: typed } : { recovery_code: typed });
  };

  const totp = method === 'totp';
  const passkey = method === 'passkey';
  const prompt = passkey
    ? t`Use your passkey to finish signing in: your fingerprint, face, screen lock or security key.`
    : totp
      ? t`Enter the 6-digit code from your authenticator app.`
      : t`Enter one of your recovery codes. Each code works once.`;
  const alternatives: { to: MfaMethod; label: string }[] = [
    { to: 'passkey', label: t`Use your passkey instead` },
    { to: 'totp', label: t`Use your authenticator app instead` },
    { to: 'recovery_code', label: t`Use a recovery code instead` },
  ];
  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-busy={busy}
      aria-describedby={promptId}
      className="flex flex-col gap-4"
    >
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Two-step verification</Trans>
      </h2>
      <p id={promptId} className="text-slate-700">
        {prompt}
      </p>
      {passkey ? null : totp ? (
        <Field
          key="totp"
          ref={input}
          label={t`Authentication code`}
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={9}
          placeholder="123456"
          value={value}
          disabled={busy}
          onChange={(event) => setValue(event.target.value)}
          className="text-center font-mono text-2xl tracking-[0.3em]"
        />
      ) : (
        <Field
          key="recovery"
          ref={input}
          label={t`Recovery code`}
          name="recovery_code"
          type="text"
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          maxLength={64}
          placeholder="abcd-efgh-ijkm"
          value={value}
          disabled={busy}
          onChange={(event) => setValue(event.target.value)}
          className="font-mono text-lg"
        />
      )}
      <Button ref={passkey ? passkeyButton : undefined} type="submit" size="lg" disabled={busy}>
        {passkey ? (busy ? t`Waiting for your passkey...` : t`Use your passkey`) : busy ? t`Verifying...` : t`Verify`}
      </Button>
      {error ? <AlertMessage>{error.text}</AlertMessage> : null}
      <div className="flex flex-col items-start gap-1 text-sm">
        {alternatives
          .filter((alternative) => alternative.to !== method && methods.includes(alternative.to))
          .map((alternative) => (
            <button key={alternative.to} type="button" className={LINK_BUTTON} onClick={() => switchTo(alternative.to)}>
              {alternative.label}
            </button>
          ))}
        <button type="button" className={LINK_BUTTON} onClick={() => onStartOver()}>
          <Trans>Start over</Trans>
        </button>
      </div>
    </form>
  );
}
