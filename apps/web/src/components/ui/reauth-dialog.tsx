import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { serverMessage } from '../../lib/api-client';
import { Button } from './button';
import { Field } from './field';
import { Modal } from './modal';
import { StatusMessage } from './status-message';

export interface ReauthDialogProps {
  open: boolean;
  /**
   * Checks the password; resolves when it is confirmed, rejects with the text to show otherwise
   * (the dialog stays open for another try).
   */
  onConfirm: (password: string) => Promise<void>;
  onCancel: () => void;
  /**
   * Confirms with a passkey instead (docs/decisions/0027), offered when the account has one;
   * resolves or rejects like `onConfirm`.
   */
  onPasskey?: () => Promise<void>;
  /** Another way to confirm, under the password (single sign-on, docs/decisions/0029). */
  alternative?: ReactNode;
}

/**
 * "Confirm your password" (DESIGN §5, docs/decisions/0024): asked before an action that needs a
 * recent password — exporting everything, creating a share. A prompt, not an error: the action
 * goes on once the password is confirmed.
 */
export function ReauthDialog({ open, onConfirm, onCancel, onPasskey, alternative }: ReauthDialogProps) {
  if (!open) return null;
  return <ReauthForm onConfirm={onConfirm} onCancel={onCancel} onPasskey={onPasskey} alternative={alternative} />;
}

function ReauthForm({ onConfirm, onCancel, onPasskey, alternative }: Omit<ReauthDialogProps, 'open'>) {
  const { t } = useLingui();
  const formId = useId();
  const [status, setStatus] = useState<string | null>(null);
  const [provingPasskey, setProvingPasskey] = useState(false);
  const {
    register,
    handleSubmit,
    resetField,
    setFocus,
    formState: { errors, isSubmitting: submitting },
  } = useForm<{ password: string }>({ defaultValues: { password: '' } });
  const isSubmitting = submitting || provingPasskey;

  const confirmWithPasskey = async () => {
    if (!onPasskey) return;
    setStatus(null);
    setProvingPasskey(true);
    try {
      await onPasskey();
    } catch (error) {
      setStatus(
        serverMessage(error) ?? (error instanceof Error ? error.message : t`Your passkey could not be confirmed. Please try again.`),
      );
    } finally {
      setProvingPasskey(false);
    }
  };

  const onSubmit = handleSubmit(async ({ password }) => {
    setStatus(null);
    try {
      await onConfirm(password);
    } catch (error) {
      setStatus(
        serverMessage(error) ?? (error instanceof Error ? error.message : t`Your password could not be confirmed. Please try again.`),
      );
      resetField('password');
      setFocus('password');
    }
  });

  return (
    <Modal
      open
      onClose={isSubmitting ? () => undefined : onCancel}
      closeOnBackdrop={!isSubmitting}
      title={t`Confirm your password`}
      description={t`For your security, enter your password again to continue. You will not be asked again for 10 minutes.`}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" form={formId} disabled={isSubmitting}>
            {isSubmitting ? <Trans>Confirming...</Trans> : <Trans>Confirm</Trans>}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <Field
          label={t`Password`}
          type="password"
          autoComplete="current-password"
          aria-required="true"
          error={errors.password?.message}
          {...register('password', { required: t`Password is required` })}
        />
        {onPasskey ? (
          <Button variant="secondary" onClick={() => void confirmWithPasskey()} disabled={isSubmitting}>
            {provingPasskey ? <Trans>Waiting for your passkey...</Trans> : <Trans>Use a passkey instead</Trans>}
          </Button>
        ) : null}
        <StatusMessage message={status} />
      </form>
      {alternative}
    </Modal>
  );
}
