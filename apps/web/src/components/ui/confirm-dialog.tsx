import { Trans } from '@lingui/react/macro';
import { useRef, type ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  message: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  /** While true both buttons are disabled and the confirm button shows `busyLabel`. */
  busy?: boolean;
  busyLabel?: string;
  tone?: 'danger' | 'primary';
}

/**
 * Asks before something that cannot be undone (SPEC §4 "Deletion dialogs"). Focus starts on
 * Cancel, so pressing Enter straight away never destroys anything.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  onConfirm,
  onCancel,
  confirmLabel,
  cancelLabel,
  busy = false,
  busyLabel,
  tone = 'danger',
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onCancel}
      title={title}
      description={message}
      role="alertdialog"
      size="sm"
      initialFocusRef={cancelRef}
      closeOnBackdrop={!busy}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel ?? <Trans>Cancel</Trans>}
          </Button>
          <Button variant={tone} onClick={onConfirm} disabled={busy}>
            {busy ? (busyLabel ?? <Trans>Deleting...</Trans>) : (confirmLabel ?? <Trans>Delete</Trans>)}
          </Button>
        </>
      }
    />
  );
}
