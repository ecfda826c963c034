import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { PASSKEY_NAME_MAX, type PasskeySummary } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { PasskeyCancelled, browserHasPasskeys } from '../../../lib/passkeys';
import { clientConfigQueryOptions } from '../../../lib/queries/client-config';
import { useMfaStatus } from '../../auth/api/get-mfa-status';
import { useAddPasskey, useRemovePasskey, useRenamePasskey } from '../api/passkeys';
import { RecoveryCodesPanel } from './recovery-codes-panel';

/** A name the person will recognise in the list, from what the browser says it runs on. */
function suggestedName(): string {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform || '';
  return platform ? translate`Passkey on ${platform}`.slice(0, PASSKEY_NAME_MAX) : translate`My passkey`;
}

/**
 * Settings → Account Settings → Passkeys (DESIGN §5, docs/decisions/0027): the account's passkeys by
 * name, with when each was added and last used; add one, rename or remove it. A passkey signs in
 * alone, and after a password it is the second step.
 */
export function PasskeysSection() {
  const { t } = useLingui();
  const status = useMfaStatus();
  const config = useQuery(clientConfigQueryOptions);
  const add = useAddPasskey();
  const [name, setName] = useState(suggestedName);
  const [nameError, setNameError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  if (codes) {
    return (
      <RecoveryCodesPanel
        codes={codes}
        intro={t`Your passkey is added. Signing in with your password now also asks for it. Keep these recovery codes in case you lose it.`}
        onDone={() => setCodes(null)}
      />
    );
  }

  const onAdd = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage(null);
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(t`Passkey name is required`);
      return;
    }
    setNameError(null);
    try {
      const answer = await add.mutateAsync(trimmed);
      setMessage(t`Passkey added successfully.`);
      setName(suggestedName());
      if (answer.recovery_codes) setCodes(answer.recovery_codes);
    } catch (error) {
      setMessage(
        error instanceof PasskeyCancelled
          ? error.message
          : errorMessage(error, t`Failed to add the passkey`, error instanceof Error ? error.message : t`Error adding the passkey`),
      );
    }
  };

  let list;
  if (status.isPending)
    list = (
      <p className="text-sm text-slate-700">
        <Trans>Loading passkeys...</Trans>
      </p>
    );
  else if (status.isError)
    list = (
      <p className="text-sm text-red-700">
        <Trans>Your passkeys could not be loaded.</Trans>
      </p>
    );
  else if (status.data.passkeys.length === 0)
    list = (
      <p className="text-sm text-slate-700">
        <Trans>You have no passkeys yet.</Trans>
      </p>
    );
  else {
    const lastFactor = !status.data.totp && status.data.passkeys.length === 1;
    list = (
      <ul className="flex flex-col gap-3" aria-label={t`Your passkeys`}>
        {status.data.passkeys.map((passkey) => (
          <PasskeyItem key={passkey.id} passkey={passkey} lastFactor={lastFactor} onDone={setMessage} />
        ))}
      </ul>
    );
  }

  const unsupported = !browserHasPasskeys()
    ? t`This browser cannot use passkeys.`
    : config.data?.passkeys === false
      ? t`Passkeys are not available on this server: it must be reached by a domain name.`
      : null;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        <Trans>
          A passkey signs you in with your fingerprint, face, screen lock or a security key, with nothing to type and nothing a fake site
          can steal. Signing in with your password then also asks for it.
        </Trans>
      </p>
      {list}
      {unsupported ? (
        <p className="text-sm font-medium text-slate-800">{unsupported}</p>
      ) : (
        <form
          onSubmit={(event) => void onAdd(event)}
          noValidate
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          aria-busy={add.isPending}
        >
          <Field
            label={t`Passkey name`}
            hint={t`So you can tell your passkeys apart.`}
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            onChange={(event) => setName(event.target.value)}
            error={nameError ?? undefined}
            disabled={add.isPending}
            containerClassName="sm:flex-1"
          />
          <Button type="submit" disabled={add.isPending} className="shrink-0">
            {add.isPending ? t`Waiting for your passkey...` : t`Add a passkey`}
          </Button>
        </form>
      )}
      <StatusMessage message={message} />
    </div>
  );
}

function PasskeyItem({
  passkey,
  lastFactor,
  onDone,
}: {
  passkey: PasskeySummary;
  lastFactor: boolean;
  onDone: (message: string | null) => void;
}) {
  const { t } = useLingui();
  const passkeyName = passkey.name;
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const formId = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const onRename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(t`Passkey name is required`);
      return;
    }
    setNameError(null);
    onDone(null);
    try {
      await rename.mutateAsync({ id: passkey.id, name: trimmed });
      setEditing(false);
      onDone(t`Passkey renamed successfully.`);
    } catch (error) {
      onDone(errorMessage(error, t`Failed to rename the passkey`, t`Error renaming the passkey`));
    }
  };

  const onRemove = async () => {
    onDone(null);
    try {
      await remove.mutateAsync(passkey.id);
      onDone(t`Passkey removed successfully.`);
    } catch (error) {
      onDone(errorMessage(error, t`Failed to remove the passkey`, t`Error removing the passkey`));
    }
    setConfirming(false);
  };

  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-start sm:justify-between">
      {editing ? (
        <form
          id={formId}
          onSubmit={(event) => void onRename(event)}
          noValidate
          className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-end"
        >
          <Field
            label={t`New name`}
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            onChange={(event) => setName(event.target.value)}
            error={nameError ?? undefined}
            disabled={rename.isPending}
            containerClassName="sm:flex-1"
            autoFocus
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={rename.isPending}>
              {rename.isPending ? t`Saving...` : t`Save`}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={rename.isPending}
              onClick={() => {
                setEditing(false);
                setName(passkey.name);
                setNameError(null);
              }}
            >
              <Trans>Cancel</Trans>
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="flex min-w-0 flex-col gap-2">
            <p className="break-words font-semibold text-slate-900">{passkey.name}</p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-700">
                <Trans>Added</Trans>
              </dt>
              <dd className="text-slate-900">
                <time dateTime={passkey.created_at}>{formatDateTime(passkey.created_at)}</time>
              </dd>
              <dt className="text-slate-700">
                <Trans>Last used</Trans>
              </dt>
              <dd className="text-slate-900">
                {passkey.last_used_at ? <time dateTime={passkey.last_used_at}>{formatDateTime(passkey.last_used_at)}</time> : t`Never`}
              </dd>
            </dl>
          </div>
          <div className="flex shrink-0 gap-2 self-start">
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)} aria-label={t`Rename ${passkeyName}`}>
              <Trans>Rename</Trans>
            </Button>
            <Button variant="danger" size="sm" onClick={() => setConfirming(true)} aria-label={t`Remove ${passkeyName}`}>
              <Trans>Remove</Trans>
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={t`Remove the passkey “${passkeyName}”?`}
        message={
          lastFactor
            ? t`You will no longer sign in with it. It is your only second factor: signing in will need only your password, and your recovery codes will stop working.`
            : t`You will no longer sign in with it.`
        }
        confirmLabel={t`Remove`}
        busy={remove.isPending}
        busyLabel={t`Removing...`}
        onConfirm={() => void onRemove()}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}
