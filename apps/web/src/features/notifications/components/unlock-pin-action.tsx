import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import type { NotificationAction } from '@kinchart/shared/notifications';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { useUnlockQrPin } from '../../emergency/api/unlock-qr-pin';
import type { QrTarget } from '../../emergency/api/qr-target';

/**
 * DESIGN §7: "the owner lifts a lock or re-enables with one action" — right from the lock or
 * disable notice. The notice names the person (member id, or null for the owner's own code).
 */
export function UnlockPinAction({ action, disabled }: { action: NotificationAction; disabled: boolean }) {
  const { t } = useLingui();
  const target = useMemo<QrTarget>(() => (action.member_id ? { memberId: action.member_id } : { self: true }), [action.member_id]);
  const unlock = useUnlockQrPin(target);
  const [result, setResult] = useState<{ text: string; error: boolean } | null>(null);

  const onClick = async () => {
    setResult(null);
    try {
      await unlock.mutateAsync();
      setResult({ text: t`The PIN works again.`, error: false });
    } catch (error) {
      setResult({
        text:
          error instanceof ApiError && error.status === 404
            ? t`This QR code no longer exists.`
            : t`The PIN could not be unlocked. Please try again.`,
        error: true,
      });
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      {result && !result.error ? null : (
        <Button size="sm" disabled={unlock.isPending} onClick={() => void onClick()}>
          {disabled ? t`Turn the PIN back on` : t`Unlock PIN`}
        </Button>
      )}
      <span aria-live="polite" className={`text-sm font-medium ${result?.error ? 'text-red-800' : 'text-green-800'}`}>
        {result?.text}
      </span>
    </div>
  );
}
