import { useEffect, useState } from 'react';
import { browserTimeZone } from '../../../lib/time-zones';
import { useForm } from 'react-hook-form';
import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MAX, PASSWORD_MIN, usernameSchema } from '@kinchart/shared/auth';
import type { SignupMode } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { serverErrorField, serverMessage } from '../../../lib/api-client';
import { translateMessageText } from '../../../i18n/message-text';
import { NEXT_PARAM, safeNextPath, withNext } from '../../../lib/next-path';
import { useSignupMode } from '../../../lib/queries/client-config';
import { useSignup } from '../api/signup';
import { useEndLogout } from '../api/check-auth';
import { AuthShell } from '../components/auth-shell';
import { AlertMessage } from '../../../components/ui/alert-message';

interface SignupFormValues {
  username: string;
  email: string;
  password: string;
}

// SPEC §4 Sign-up, §9: the second message after 1 s, /login after 2 s.
const SECOND_MESSAGE_MS = 1000;
const REDIRECT_MS = 2000;

/** SPEC §8: the server's message, else its error field, else the client's error text, else a fallback. */
function signupErrorMessage(error: unknown): string {
  return (
    serverMessage(error) ??
    serverErrorField(error) ??
    (error instanceof Error && error.message ? error.message : undefined) ??
    translate`An error occurred during signup`
  );
}

/**
 * SIGNUP_MODE=invite (docs/decisions/0025): the invitation page sends visitors here with
 * `?next=/invite/{token}`, so the token the server asks for is the one in that path.
 */
const INVITE_NEXT = /^\/invite\/([A-Za-z0-9_-]{43})$/;
function invitationOf(next: string | null): string | undefined {
  return INVITE_NEXT.exec(safeNextPath(next) ?? '')?.[1];
}

/**
 * Why the form is not offered, or null when it is: the server refuses these sign-ups anyway. The
 * English words are the shared SIGNUP_CLOSED and SIGNUP_INVITE_ONLY.
 */
function signupRefusal(mode: SignupMode | undefined, invitation: string | undefined): string | null {
  if (mode === 'closed') return translate`Sign-up is closed on this server.`;
  if (mode === 'invite' && !invitation) return translate`Sign-up is by invitation only.`;
  return null;
}

function validateUsername(value: string): true | string {
  const result = usernameSchema.safeParse(value);
  if (result.success) return true;
  const message = result.error.issues[0]?.message;
  return message ? translateMessageText(message) : translate`Username is required`;
}

export function SignupPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const signup = useSignup();
  // Carried on to /login, so a visitor who came to sign up (from an invitation) gets back there.
  const [params] = useSearchParams();
  const login = withNext('/login', params.get(NEXT_PARAM));
  // Until the mode is known the form shows (the SPEC's flow in the default, open mode).
  const mode = useSignupMode();
  const invitation = invitationOf(params.get(NEXT_PARAM));
  const refusal = signupRefusal(mode, invitation);
  // SPEC §5 message colours: green for success, red otherwise (said by the outcome, not by the words, which are translated).
  const [message, setMessage] = useState<{ text: string; success: boolean } | null>(null);
  const [created, setCreated] = useState(false);
  const busy = signup.isPending;
  useEndLogout();

  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupFormValues>({
    defaultValues: { username: '', email: '', password: '' },
    // SPEC §4: inputs and button are disabled while busy; they stay so while redirecting.
    disabled: busy || created,
  });

  useEffect(() => {
    if (!created) return;
    const second = window.setTimeout(
      () => setMessage({ text: t`Account created successfully! Redirecting to login...`, success: true }),
      SECOND_MESSAGE_MS,
    );
    const leave = window.setTimeout(() => void navigate(login), REDIRECT_MS);
    return () => {
      window.clearTimeout(second);
      window.clearTimeout(leave);
    };
  }, [created, navigate, login, t]);

  const onSubmit = handleSubmit(
    async (values) => {
      setMessage(null);
      try {
        // SPEC §5: only the username is checked here; email relies on the browser's email input.
        await signup.mutateAsync({
          username: values.username.trim(),
          email: values.email,
          password: values.password,
          // Issue 32: the account's time zone starts as this browser's.
          time_zone: browserTimeZone(),
          // Only an invite-only server asks for it; an open one gets the SPEC's three fields.
          ...(mode === 'invite' && invitation ? { invitation } : {}),
        });
        setMessage({ text: t`Account created successfully!`, success: true });
        setCreated(true);
      } catch (error) {
        setMessage({ text: signupErrorMessage(error), success: false });
      }
    },
    () => setMessage(null),
  );

  const success = message?.success ?? false;
  const min = PASSWORD_MIN;
  const max = PASSWORD_MAX;

  return (
    <AuthShell
      title={t`Create an Account`}
      intro={t`Join Kinchart! Please fill in the form below.`}
      footer={
        <>
          <p>
            <Trans>
              Already have an account?{' '}
              <Link to={login} className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
                Sign in here
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
      {refusal ? (
        <div className="flex flex-col gap-3">
          <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 font-medium text-amber-900">
            {refusal}
          </p>
          {mode === 'invite' ? (
            <p className="text-slate-700">
              <Trans>Someone who uses Kinchart here can share a profile with you; their invitation link lets you create an account.</Trans>
            </p>
          ) : null}
        </div>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-busy={busy}>
          <Field
            label={t`Username`}
            autoComplete="username"
            aria-required="true"
            error={errors.username?.message}
            {...register('username', { validate: validateUsername })}
          />
          <Field label={t`Email`} type="email" autoComplete="email" {...register('email')} />
          {/* DESIGN §5 password rules, stated before the first try rather than after a refusal. */}
          <Field
            label={t`Password`}
            type="password"
            autoComplete="new-password"
            hint={t`${min}–${max} characters, and not a common password.`}
            {...register('password')}
          />
          <Button type="submit" size="lg" disabled={busy || created}>
            {busy ? t`Creating Account...` : t`Sign Up`}
          </Button>
          <div role="status" aria-live="polite">
            {message && success ? <p className="rounded-lg bg-green-50 px-3 py-2 font-medium text-green-800">{message.text}</p> : null}
          </div>
          {message && !success ? <AlertMessage>{message.text}</AlertMessage> : null}
        </form>
      )}
    </AuthShell>
  );
}
