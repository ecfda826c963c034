import { useId, useState } from 'react';
import { select } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { MAX_PIN_STREAK, MAX_PIN_TOTAL, PIN_LOCK_MINUTES, type QrConfig } from '@kinchart/shared/emergency';
import { Button } from '../../../components/ui/button';
import type { QrTarget } from '../api/qr-target';
import { useUnlockQrPin } from '../api/unlock-qr-pin';
import { useUpdateQrSettings } from '../api/update-qr-settings';
import { whoseParts, type Whose } from './whose';

interface Props {
  target: QrTarget;
  config: QrConfig;
  /** Who the code is for, in running text: "your" / "Rex's". */
  whose: Whose;
}

/**
 * DESIGN §7, the owner's side of the guessing limits and of "essentials without the PIN": says
 * when the PIN is locked or disabled and offers the one action that lifts it, and the per-code
 * choice to show the essentials to anyone who scans, like a phone's "show when locked".
 */
export function QrPinOptions({ target, config, whose }: Props) {
  const hintId = useId();
  const { t } = useLingui();
  const { who, name } = whoseParts(whose);
  const settings = useUpdateQrSettings(target);
  const unlock = useUnlockQrPin(target);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  // The choice being saved, set in the same event as the click: the mutation's own pending state
  // arrives a tick later, and a controlled checkbox would flick back to the old value meanwhile.
  const [saving, setSaving] = useState<boolean | null>(null);

  const onEssentials = async (on: boolean) => {
    setStatus(null);
    setSaving(on);
    try {
      await settings.mutateAsync({ essentials_without_pin: on });
      setStatus({
        text: on ? t`Essentials are now shown without the PIN.` : t`Essentials are now hidden until the PIN is entered.`,
        error: false,
      });
    } catch {
      setStatus({ text: t`The setting could not be saved. Please try again.`, error: true });
    } finally {
      setSaving(null);
    }
  };

  const onUnlock = async () => {
    setStatus(null);
    try {
      await unlock.mutateAsync();
      setStatus({ text: t`The PIN works again.`, error: false });
    } catch {
      setStatus({ text: t`The PIN could not be unlocked. Please try again.`, error: true });
    }
  };

  return (
    <div className="flex flex-col gap-4">
      {config.pin_status === 'locked' ? (
        <div className="flex flex-col items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p>
            {t`${select(who, {
              self: `The PIN is locked: ${MAX_PIN_STREAK} wrong PINs in a row were entered for your code from one network, so PIN entry from there is paused for ${PIN_LOCK_MINUTES} minutes; anyone else can still enter the PIN.`,
              named: `The PIN is locked: ${MAX_PIN_STREAK} wrong PINs in a row were entered for ${name}’s code from one network, so PIN entry from there is paused for ${PIN_LOCK_MINUTES} minutes; anyone else can still enter the PIN.`,
              other: `The PIN is locked: ${MAX_PIN_STREAK} wrong PINs in a row were entered for this member’s code from one network, so PIN entry from there is paused for ${PIN_LOCK_MINUTES} minutes; anyone else can still enter the PIN.`,
            })}`}
            {config.essentials_without_pin ? ' ' + t`The essentials are still shown.` : ''}
          </p>
          <Button size="sm" disabled={unlock.isPending} onClick={() => void onUnlock()}>
            <Trans>Unlock PIN</Trans>
          </Button>
        </div>
      ) : null}
      {config.pin_status === 'disabled' ? (
        <div className="flex flex-col items-start gap-2 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          <p>
            {t`${select(who, {
              self: `The PIN is turned off: ${MAX_PIN_TOTAL} wrong PINs were entered for your code.`,
              named: `The PIN is turned off: ${MAX_PIN_TOTAL} wrong PINs were entered for ${name}’s code.`,
              other: `The PIN is turned off: ${MAX_PIN_TOTAL} wrong PINs were entered for this member’s code.`,
            })}`}{' '}
            {config.essentials_without_pin
              ? t`The essentials are still shown without the PIN.`
              : t`Nobody can open it until you turn the PIN back on.`}
          </p>
          <Button size="sm" disabled={unlock.isPending} onClick={() => void onUnlock()}>
            <Trans>Turn the PIN back on</Trans>
          </Button>
        </div>
      ) : null}

      <div>
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="size-5 shrink-0 cursor-pointer rounded border-slate-400 accent-brand-700"
            // Shows the choice at once while it is being saved; the server's answer then holds.
            checked={saving ?? config.essentials_without_pin}
            disabled={saving !== null}
            aria-describedby={hintId}
            onChange={(event) => void onEssentials(event.target.checked)}
          />
          <span>
            <Trans>Show essentials without the PIN</Trans>
          </span>
        </label>
        <p id={hintId} className="mt-1 text-sm text-slate-700">
          {t`${select(who, {
            self: 'Like a phone’s “show when locked”: anyone who scans your code sees the name, age, blood type, allergies, conditions, bleeding disorder, medication names and primary contact straight away, without the PIN. Everything else still needs the PIN. You are notified when they are viewed.',
            named: `Like a phone’s “show when locked”: anyone who scans ${name}’s code sees the name, age, blood type, allergies, conditions, bleeding disorder, medication names and primary contact straight away, without the PIN. Everything else still needs the PIN. You are notified when they are viewed.`,
            other:
              'Like a phone’s “show when locked”: anyone who scans this member’s code sees the name, age, blood type, allergies, conditions, bleeding disorder, medication names and primary contact straight away, without the PIN. Everything else still needs the PIN. You are notified when they are viewed.',
          })}`}
        </p>
      </div>
      <div aria-live="polite">
        {status ? <p className={`text-sm font-medium ${status.error ? 'text-red-800' : 'text-green-800'}`}>{status.text}</p> : null}
      </div>
    </div>
  );
}
