import { useEffect, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { LoginInput, LoginResponse, MfaMethod } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { isNetworkError, serverMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { SavedCardsLink } from '../components/saved-cards-link';
import { NEXT_PARAM, safeNextPath, withNext } from '../../../lib/next-path';
import { notify } from '../../../lib/toast';
import { useAuth } from '../api/check-auth';
import { useLogin } from '../api/login';
import { AuthShell } from '../components/auth-shell';
import { LoginSecondStep } from '../components/login-second-step';
import { PasskeySignIn } from '../components/passkey-sign-in';
import { SsoSignIn } from '../components/sso-sign-in';
import { useSignInOptions } from '../api/sign-in-options';
import { SECOND_FACTOR_PARAM } from '@kinchart/shared/auth-texts';
import { loadLoginResolver, loginResolver } from '../utils/login-resolver';
import { AlertMessage } from '../../../components/ui/alert-message';

const EMPTY = { email: '', password: '' };

/**
 * The second step's methods when /login opens at it: single sign-on came back for an account with
 * a second factor (docs/decisions/0029), and the server names the methods in `?second_factor=`. The
 * step offers only methods it knows; the pending login itself is in an HttpOnly cookie.
 */
function secondStepFromAddress(value: string | null): MfaMethod[] | null {
  const methods = (value ?? '')
    .split(',')
    .filter((method) => method !== '')
    .slice(0, 5) as MfaMethod[];
  return methods.length > 0 ? methods : null;
}

// The schema's code is fetched when someone turns to the form, not before the page has painted;
// a submit that comes first waits for it (utils/login-resolver).
const prepareForm = () => {
  loadLoginResolver().catch((failure: unknown) => console.error('The login form could not be prepared:', failure));
};

export function LoginPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const auth = useAuth();
  const options = useSignInOptions();
  const login = useLogin();
  // A page that sent the visitor here to sign in (the invitation page) gets them back; else /dashboard (SPEC §2).
  const [params] = useSearchParams();
  const next = safeNextPath(params.get(NEXT_PARAM));
  const [error, setError] = useState<{ text: string; attempt: number } | null>(null);
  /** Set when the password was right and the account asks for a second factor (docs/decisions/0026). */
  const [secondStep, setSecondStep] = useState<readonly MfaMethod[] | null>(() => secondStepFromAddress(params.get(SECOND_FACTOR_PARAM)));
  const [restarts, setRestarts] = useState(0);
  const busy = login.isPending;

  // loginSchema adds no client checks (SPEC §5); it only trims and lower-cases the email.
  const { register, handleSubmit, reset, setFocus } = useForm<LoginInput>({
    resolver: loginResolver,
    defaultValues: EMPTY,
    disabled: busy,
  });

  // After a failed attempt, or back from the second step, start from the (empty and enabled) email field.
  useEffect(() => {
    if ((error || restarts > 0) && !secondStep) setFocus('email');
  }, [error, restarts, secondStep, setFocus]);

  // Someone already signed in has no business here (the check resolves before this matters).
  if (auth.data?.authenticated && login.isIdle) return <Navigate to={next ?? '/dashboard'} replace />;

  const failed = (failure: unknown) => {
    // SPEC §4: email and password are cleared after every attempt.
    reset(EMPTY);
    setError((previous) => ({
      // Offline there is no server message to show, and "An error occurred" would hide why.
      text: isNetworkError(failure)
        ? t`You are offline, so you cannot log in right now. Please try again once you are connected.`
        : (serverMessage(failure) ?? t`An error occurred`),
      attempt: (previous?.attempt ?? 0) + 1,
    }));
  };

  // SPEC §4 Login: the message (the server's, or 'Login successful.'), then /dashboard.
  const signedIn = async (answer: LoginResponse) => {
    notify.success(serverText(answer) ?? t`Login successful.`);
    await navigate(next ?? '/dashboard', { replace: true });
  };

  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      // Resolves only after the authentication state has been re-checked (SPEC §4 Login).
      const answer = await login.mutateAsync(values);
      reset(EMPTY);
      if ('mfa_required' in answer) setSecondStep(answer.methods);
      else await signedIn(answer);
    } catch (failure) {
      failed(failure);
    }
  });
  // An attempt whose schema code could not be downloaded (utils/login-resolver) fails like any other.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => submit(event).catch(failed);

  return (
    <AuthShell
      title={t`Welcome Back!`}
      intro={t`Please enter your login details.`}
      footer={
        <>
          {/* Offline a reload lands here: the cards kept on this device stay one tap away (issue 30). */}
          <SavedCardsLink />
          <p>
            <Trans>
              New to Kinchart?{' '}
              <Link
                to={withNext('/signup', next)}
                className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
              >
                Sign up here
              </Link>
            </Trans>
          </p>
          <p>
            <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
              <Trans>Go Home</Trans>
            </Link>
          </p>
        </>
      }
    >
      {secondStep ? (
        <LoginSecondStep
          methods={secondStep}
          onSignedIn={signedIn}
          onStartOver={(message) => {
            setSecondStep(null);
            setError(message ? { text: message, attempt: (error?.attempt ?? 0) + 1 } : null);
            setRestarts((n) => n + 1);
          }}
        />
      ) : (
        <>
          {/* noValidate: SPEC §5 "Login: no client checks" — the browser must not block odd emails. */}
          <form onSubmit={onSubmit} onFocus={prepareForm} noValidate className="flex flex-col gap-4" aria-busy={busy}>
            <Field label={t`Email`} type="email" autoComplete="email" {...register('email')} />
            <div className="flex flex-col gap-1">
              <Field label={t`Password`} type="password" autoComplete="current-password" {...register('password')} />
              {/* A way back in (docs/decisions/0025); the SPEC's login texts and flow stay as they are. */}
              <p className="text-sm">
                <Link to="/forgot-password" className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
                  <Trans>Forgot password?</Trans>
                </Link>
              </p>
            </div>
            <Button type="submit" size="lg" disabled={busy}>
              <Trans>Login</Trans>
            </Button>
            {error ? <AlertMessage>{error.text}</AlertMessage> : null}
          </form>
          {/* Other ways to sign in (docs/decisions/0027, 0029), under one "or". */}
          {options?.ssoName || options?.passkeys ? (
            <p className="mt-4 flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
              <span className="h-px flex-1 bg-slate-300" />
              <Trans context="between sign-in methods">or</Trans>
              <span className="h-px flex-1 bg-slate-300" />
            </p>
          ) : null}
          <div className="mt-4 flex flex-col gap-4 empty:hidden">
            {options?.passkeys ? <PasskeySignIn onSignedIn={signedIn} /> : null}
            <SsoSignIn next={next} />
          </div>
        </>
      )}
    </AuthShell>
  );
}
