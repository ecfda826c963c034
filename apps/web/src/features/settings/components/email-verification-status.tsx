import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { AlertMessage } from '../../../components/ui/alert-message';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { useEmailVerification, useSendVerificationLink } from '../api/email-verification';

/**
 * Settings → Change Email Address: whether the account's email is confirmed (DESIGN §5, docs/decisions/0030),
 * and a new link when it is not. Nothing here stands in the way of using the account.
 */
export function EmailVerificationStatus() {
  const { t } = useLingui();
  const status = useEmailVerification();
  const send = useSendVerificationLink();
  const [answer, setAnswer] = useState<{ text: string; sent: boolean } | null>(null);

  if (!status.data) return null;
  if (status.data.verified) {
    return (
      <p className="text-sm font-medium text-green-800">
        <Trans>Your email address is confirmed.</Trans>
      </p>
    );
  }

  const resend = async () => {
    setAnswer(null);
    try {
      const sent = await send.mutateAsync();
      setAnswer({ text: serverText(sent) ?? sent.message, sent: true });
    } catch (failure) {
      setAnswer({ text: errorMessage(failure, t`The link could not be sent. Please try again.`), sent: false });
    }
  };

  return (
    <div className="flex flex-col gap-2 rounded-lg bg-amber-50 px-3 py-3 text-sm text-amber-900">
      {status.data.can_send ? (
        <>
          <p>
            <Trans>
              Your email address is not confirmed yet. Open the link we sent to it; once it is confirmed, single sign-on can link to this
              account without asking for your password.
            </Trans>
          </p>
          <div>
            <Button variant="secondary" size="sm" onClick={() => void resend()} disabled={send.isPending}>
              {send.isPending ? t`Sending...` : t`Send a new link`}
            </Button>
          </div>
          {/* The status region stays on the page so its first message is announced. */}
          <div role="status" aria-live="polite">
            {answer?.sent ? <p className="font-medium text-green-800">{answer.text}</p> : null}
          </div>
          {answer && !answer.sent ? <AlertMessage>{answer.text}</AlertMessage> : null}
        </>
      ) : (
        <p>
          <Trans>
            Your email address is not confirmed, and this server does not send email. If you sign in with single sign-on, it asks for your
            password once to link your account.
          </Trans>
        </p>
      )}
    </div>
  );
}
