import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { invitePath, type Invitation } from '@kinchart/shared/people';
import { QueryState } from '../../../components/query-state';
import { Button, buttonClassName } from '../../../components/ui/button';
import { DocumentTitle } from '../../../components/ui/page-header';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { withNext } from '../../../lib/next-path';
import { notify } from '../../../lib/toast';
import { useAuth } from '../../auth/api/check-auth';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitation } from '../api/get-invitation';
import { RoleAllowances } from '../components/role-text';
import { AlertMessage } from '../../../components/ui/alert-message';
import { roleLabel } from '../utils/role-words';

const TITLE = msg({ message: 'Invitation', comment: 'Title of the page an invitation link opens' });
/** The server's one answer for every link that opens nothing (used, expired, revoked, unknown). */
const GONE = msg`This invitation has expired or is no longer available`;

/** "Mia", or words for an invitation to someone without a name (perhaps the sender's own profile). */
function whom(invitation: Invitation): string {
  return (
    invitation.person_name ??
    (invitation.is_pet
      ? t({ message: 'a pet', comment: 'Whom an invitation shares: "sam wants to share a pet with you as Viewer."' })
      : t({ message: 'a profile', comment: 'Whom an invitation shares: "sam wants to share a profile with you as Viewer."' }))
  );
}

/**
 * /invite/{token} (DESIGN §11): an invitation link explains who is sharing whom, under which
 * role, before anything else; a visitor signs in or signs up and comes back here to accept. The
 * token only ever goes to this site's own API (no outside requests; Referrer-Policy: no-referrer).
 */
export function InvitePage() {
  const { t } = useLingui();
  const { token = '' } = useParams();
  const invitation = useInvitation(token);

  // A link that opens nothing is not a failure to retry: it says so, with the way home.
  const gone = invitation.error instanceof ApiError && invitation.error.status === 404;
  const body = gone ? (
    <Gone message={errorMessage(invitation.error, t(GONE))} />
  ) : (
    <QueryState query={invitation} loading={t`Loading...`} error={t`The invitation could not be loaded.`}>
      {(found) => <InvitationDetails token={token} invitation={found} />}
    </QueryState>
  );

  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 rounded-2xl bg-white px-6 py-8 shadow-sm ring-1 ring-slate-200 sm:px-10">
      <DocumentTitle title={t(TITLE)} />
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{t(TITLE)}</h1>
      {body}
    </div>
  );
}

function Gone({ message }: { message: string }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 font-medium text-amber-900">
        {message}
      </p>
      <p className="text-slate-700">
        <Trans>Ask the person who sent it for a new link.</Trans>
      </p>
      <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
        <Trans>Go Home</Trans>
      </Link>
    </div>
  );
}

function InvitationDetails({ token, invitation }: { token: string; invitation: Invitation }) {
  const { t } = useLingui();
  const auth = useAuth();
  const name = whom(invitation);
  const role = roleLabel(invitation.role);
  const sharedBy = invitation.shared_by;
  const ends = invitation.expires_at ? formatDate(invitation.expires_at) : null;
  return (
    <>
      <div className="flex flex-col gap-3">
        <p className="text-lg text-slate-900">
          <Trans>
            <strong>{sharedBy}</strong> wants to share <strong>{name}</strong> with you as <strong>{role}</strong>.
          </Trans>
        </p>
        <div>
          <p className="text-sm font-medium text-slate-800">
            <Trans>What {role} access allows:</Trans>
          </p>
          <RoleAllowances role={invitation.role} className="mt-1" />
        </div>
        <p className="text-sm text-slate-700">
          {ends ? t`Access ends on ${ends}.` : t`Access has no end date; ${sharedBy} can end it at any time, and you can leave it.`}
        </p>
      </div>
      {auth.isPending ? (
        <p className="text-slate-700">{t`Loading...`}</p>
      ) : auth.data?.authenticated ? (
        <AcceptInvitation token={token} name={name} username={auth.data.user.username} />
      ) : (
        <SignInFirst token={token} />
      )}
    </>
  );
}

function SignInFirst({ token }: { token: string }) {
  const back = invitePath(token);
  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 pt-5">
      <p className="text-slate-700">
        <Trans>Sign in or create an account to accept. You come back here afterwards.</Trans>
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Link to={withNext('/login', back)} className={buttonClassName('primary', 'lg')}>
          <Trans>Sign in</Trans>
        </Link>
        <Link to={withNext('/signup', back)} className={buttonClassName('secondary', 'lg')}>
          <Trans>Sign up</Trans>
        </Link>
      </div>
    </div>
  );
}

function AcceptInvitation({ token, name, username }: { token: string; name: string; username: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const accept = useAcceptInvitation(token);
  const [error, setError] = useState<string | null>(null);

  const onAccept = async () => {
    setError(null);
    try {
      const { personId } = await accept.mutateAsync();
      notify.success(t`You can now see ${name}.`);
      // The dashboard opens on that person (its ?member= choice).
      await navigate(`/dashboard?${new URLSearchParams({ member: personId }).toString()}`, { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, t`Failed to accept the invitation`, t`Error accepting the invitation`));
    }
  };

  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 pt-5">
      <p className="text-sm text-slate-700">
        <Trans>
          Signed in as <strong>{username}</strong>.
        </Trans>
      </p>
      <div>
        <Button size="lg" disabled={accept.isPending} onClick={() => void onAccept()}>
          {accept.isPending ? t`Accepting...` : t`Accept invitation`}
        </Button>
      </div>
      {error ? <AlertMessage>{error}</AlertMessage> : null}
    </div>
  );
}
