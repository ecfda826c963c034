import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { SessionInfo } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { LOGGED_OUT, clearSession, setLoggingOut } from '../../auth/api/check-auth';
import { useEndOtherSessions } from '../api/end-other-sessions';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/get-sessions';
import { deviceName } from '../../../lib/device-name';

/**
 * Settings → Account Settings → Sessions (DESIGN §5, ASVS 5.0 7.5.2): every browser signed in to
 * the account, this one first and marked, each with Sign out; and Sign out of all other sessions.
 */
export function SessionsSection() {
  const { t } = useLingui();
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const [status, setStatus] = useState<string | null>(null);

  if (sessions.isPending) {
    return (
      <p className="text-sm text-slate-700">
        <Trans>Loading sessions...</Trans>
      </p>
    );
  }
  if (sessions.isError) {
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        <Trans>Your sessions could not be loaded. Please try again later.</Trans>
      </p>
    );
  }

  const others = sessions.data.filter((session) => !session.current).length;
  const onEndOthers = async () => {
    setStatus(null);
    try {
      const { ended } = await endOthers.mutateAsync();
      setStatus(
        plural(ended, {
          one: 'Signed out of # other session successfully.',
          other: 'Signed out of # other sessions successfully.',
        }),
      );
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to sign out of the other sessions`, t`Error signing out of the other sessions`));
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        <Trans>These browsers are signed in to your account. If you do not recognise one, sign it out and change your password.</Trans>
      </p>
      <ul className="flex flex-col gap-3">
        {sessions.data.map((session) => (
          <SessionItem key={session.id} session={session} onEnded={setStatus} />
        ))}
      </ul>
      {others > 0 ? (
        <div>
          <Button variant="secondary" onClick={() => void onEndOthers()} disabled={endOthers.isPending}>
            {endOthers.isPending ? t`Signing out...` : t`Sign out of all other sessions`}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-700">
          <Trans>You are not signed in anywhere else.</Trans>
        </p>
      )}
      <StatusMessage message={status} />
    </div>
  );
}

function SessionItem({ session, onEnded }: { session: SessionInfo; onEnded: (message: string | null) => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const end = useEndSession();
  const device = deviceName(session.user_agent);
  const signedIn = formatDateTime(session.created_at);

  const onSignOut = async () => {
    onEnded(null);
    // Signing out this very browser is a logout (SPEC §2 Layout: it lands on /signup).
    if (session.current) setLoggingOut(true);
    try {
      const answer = await end.mutateAsync(session.id);
      if (!answer.current) {
        onEnded(t`${device} signed out successfully.`);
        return;
      }
    } catch (error) {
      setLoggingOut(false);
      onEnded(errorMessage(error, t`Failed to sign out the session`, t`Error signing out the session`));
      return;
    }
    // DESIGN §7: a logout removes the emergency cards kept on this device (loaded on demand).
    await import('../../offline-cards/lib/forget-offline-cards')
      .then(({ forgetOfflineCards }) => forgetOfflineCards())
      .catch(() => undefined);
    notify.success(t`Logged out successfully`);
    clearSession(queryClient, LOGGED_OUT);
    void navigate('/signup', { replace: true });
  };

  return (
    <li
      className={`flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-start sm:justify-between ${
        session.current ? 'border-brand-300 bg-brand-50' : 'border-slate-200'
      }`}
    >
      <div className="flex min-w-0 flex-col gap-2">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
          {device}
          {session.current ? (
            <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">
              <Trans>This device</Trans>
            </span>
          ) : null}
          {/* A browser subscribed to reminders in this session: signing it out stops them (decision 0044). */}
          {session.reminders ? (
            <span className="rounded-full border border-slate-400 px-2 py-0.5 text-xs font-semibold text-slate-800">
              <Trans>Receives reminders</Trans>
            </span>
          ) : null}
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-700">
            <Trans>IP address</Trans>
          </dt>
          <dd className="break-all text-slate-900">{session.ip ?? t`Unknown`}</dd>
          <dt className="text-slate-700">
            <Trans>Signed in</Trans>
          </dt>
          <dd className="text-slate-900">
            <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time>
          </dd>
          <dt className="text-slate-700">
            <Trans>Last active</Trans>
          </dt>
          <dd className="text-slate-900">
            {session.current ? t`Now` : <time dateTime={session.last_seen_at}>{formatDateTime(session.last_seen_at)}</time>}
          </dd>
        </dl>
      </div>
      {/* Named apart for screen readers (several sessions can be the same browser); the name starts with the visible text. */}
      <Button
        variant="secondary"
        size="sm"
        className="shrink-0 self-start"
        onClick={() => void onSignOut()}
        disabled={end.isPending}
        aria-label={end.isPending ? undefined : session.current ? t`Sign out this device` : t`Sign out ${device}, signed in ${signedIn}`}
      >
        {end.isPending ? t`Signing out...` : t`Sign out`}
      </Button>
    </li>
  );
}
