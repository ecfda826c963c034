import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { RECOVERY_CODE_COUNT, type MfaStatus, type TotpSetupResponse } from '@kinchart/shared/auth';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { useDisableTotp } from '../api/disable-totp';
import { useMfaStatus } from '../../auth/api/get-mfa-status';
import { useNewRecoveryCodes } from '../api/new-recovery-codes';
import { useSetupTotp } from '../api/setup-totp';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpSetupPanel } from './totp-setup-panel';

function RecoveryCodesLeft({ left }: { left: number }) {
  const total = RECOVERY_CODE_COUNT;
  return (
    <p className={`text-sm ${left <= 2 ? 'font-semibold text-red-700' : 'text-slate-700'}`}>
      {left <= 2 ? (
        <Trans>
          {left} of {total} recovery codes left. Make new ones before you run out.
        </Trans>
      ) : (
        <Trans>
          {left} of {total} recovery codes left.
        </Trans>
      )}
    </p>
  );
}

type Stage =
  | { kind: 'status' }
  | { kind: 'setup'; setup: TotpSetupResponse }
  | { kind: 'codes'; codes: string[]; intro: string }
  | { kind: 'confirm-off' }
  | { kind: 'confirm-new-codes' };

/**
 * Settings → Account Settings → Two-Factor Authentication (SPEC §2's button, made real; DESIGN §5,
 * docs/decisions/0026): the status, setting up an authenticator app, recovery codes, turning it off.
 */
export function TwoFactorSection() {
  const { t } = useLingui();
  const status = useMfaStatus();
  const setup = useSetupTotp();
  const disable = useDisableTotp();
  const renew = useNewRecoveryCodes();
  const [stage, setStage] = useState<Stage>({ kind: 'status' });
  const [message, setMessage] = useState<string | null>(null);

  const startSetup = async () => {
    setMessage(null);
    try {
      setStage({ kind: 'setup', setup: await setup.mutateAsync() });
    } catch (error) {
      setMessage(errorMessage(error, t`Failed to start the set-up`));
    }
  };

  const turnOff = async () => {
    try {
      await disable.mutateAsync();
      setMessage(t`Two-factor authentication turned off successfully.`);
    } catch (error) {
      setMessage(errorMessage(error, t`Failed to turn off two-factor authentication`));
    }
    setStage({ kind: 'status' });
  };

  const newCodes = async () => {
    try {
      const { recovery_codes } = await renew.mutateAsync();
      setStage({ kind: 'codes', codes: recovery_codes, intro: t`Your new recovery codes are ready. The old ones no longer work.` });
    } catch (error) {
      setMessage(errorMessage(error, t`Failed to make new recovery codes`));
      setStage({ kind: 'status' });
    }
  };

  if (stage.kind === 'setup') {
    return (
      <TotpSetupPanel
        setup={stage.setup}
        onCancel={() => setStage({ kind: 'status' })}
        onEnabled={(codes) => {
          setMessage(t`Two-factor authentication turned on successfully.`);
          setStage({ kind: 'codes', codes, intro: t`Two-factor authentication is on. Signing in now asks for a code from your app.` });
        }}
      />
    );
  }
  if (stage.kind === 'codes') {
    return <RecoveryCodesPanel codes={stage.codes} intro={stage.intro} onDone={() => setStage({ kind: 'status' })} />;
  }

  const renderStatus = (data: MfaStatus) => {
    if (data.totp) {
      return (
        <>
          <p className="text-sm text-slate-800">
            <span className="me-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
              <Trans context="two-factor status">On</Trans>
            </span>
            <Trans>Signing in asks for a code from your authenticator app after your password.</Trans>
          </p>
          <RecoveryCodesLeft left={data.recovery_codes_left} />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setStage({ kind: 'confirm-new-codes' })}>
              <Trans>New recovery codes</Trans>
            </Button>
            <Button variant="danger" onClick={() => setStage({ kind: 'confirm-off' })}>
              <Trans>Turn off</Trans>
            </Button>
          </div>
        </>
      );
    }
    // A passkey is a second factor too (docs/decisions/0027): its recovery codes are managed here.
    const byPasskey = data.passkeys.length > 0;
    return (
      <>
        <p className="text-sm text-slate-800">
          <span className="me-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">
            <Trans context="two-factor status">Off</Trans>
          </span>
          {byPasskey
            ? t`Your passkey is your second step now. You can also use a 6-digit code from an authenticator app on your phone.`
            : t`Add a second step when you sign in: a 6-digit code from an authenticator app on your phone, or a passkey (below).`}
        </p>
        {byPasskey ? <RecoveryCodesLeft left={data.recovery_codes_left} /> : null}
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => void startSetup()} disabled={setup.isPending}>
            {setup.isPending ? t`Starting...` : t`Set up`}
          </Button>
          {byPasskey ? (
            <Button variant="secondary" onClick={() => setStage({ kind: 'confirm-new-codes' })}>
              <Trans>New recovery codes</Trans>
            </Button>
          ) : null}
        </div>
      </>
    );
  };

  const body = (
    <QueryState
      query={status}
      loading={t`Loading two-factor authentication...`}
      error={t`Two-factor authentication could not be loaded.`}
      compact
    >
      {renderStatus}
    </QueryState>
  );

  return (
    <>
      {body}
      <StatusMessage message={message} />
      <ConfirmDialog
        open={stage.kind === 'confirm-off'}
        title={t`Turn off two-factor authentication?`}
        message={
          status.data?.passkeys.length
            ? t`Your authenticator app will no longer be asked for. Your passkeys and recovery codes keep working.`
            : t`Signing in will need only your password, and your recovery codes will stop working.`
        }
        confirmLabel={t`Turn off`}
        busy={disable.isPending}
        busyLabel={t`Turning off...`}
        onConfirm={() => void turnOff()}
        onCancel={() => setStage({ kind: 'status' })}
      />
      <ConfirmDialog
        open={stage.kind === 'confirm-new-codes'}
        title={t`Make new recovery codes?`}
        message={t`Your current recovery codes will stop working.`}
        confirmLabel={t`Make new codes`}
        tone="primary"
        busy={renew.isPending}
        busyLabel={t`Making codes...`}
        onConfirm={() => void newCodes()}
        onCancel={() => setStage({ kind: 'status' })}
      />
    </>
  );
}
