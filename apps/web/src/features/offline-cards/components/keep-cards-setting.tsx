import { useId, useState } from 'react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { keepCards, stopKeepingCards, useSavedCards } from '../hooks/use-saved-cards';
import { formatSavedAt } from '../lib/format';
import { Switch } from '../../../components/ui/switch';

type Status = { text: string; error: boolean } | null;

/**
 * Settings → "Keep emergency cards on this device" (DESIGN §7): a per-device switch. On, the
 * emergency cards of the signed-in owner and of each family member and pet are stored on this
 * device and open with no network at /emergency-cards; off — or logging out — removes them.
 */
export function KeepCardsSetting({ userId }: { userId: string }) {
  const { t } = useLingui();
  const hintId = useId();
  const queryClient = useQueryClient();
  const saved = useSavedCards();
  // The choice being applied, set in the click itself so the switch does not flick back meanwhile.
  const [applying, setApplying] = useState<boolean | null>(null);
  const [status, setStatus] = useState<Status>(null);
  // A record of another account is not this user's; the signed-in layout removes it.
  const record = saved.data?.userId === userId ? saved.data : null;
  const on = applying ?? record !== null;
  const savedAt = formatSavedAt(record?.savedAt ?? null);
  const count = record?.cards.length ?? 0;
  const kept = record
    ? savedAt
      ? t`${plural(count, {
          one: `# emergency card saved on this device, last on ${savedAt}.`,
          other: `# emergency cards saved on this device, last on ${savedAt}.`,
        })}`
      : t`Not saved yet: the cards are saved the next time you open Kinchart online.`
    : null;

  const onChange = async (next: boolean) => {
    setApplying(next);
    setStatus(null);
    try {
      if (next) {
        const { result } = await keepCards(queryClient, userId);
        // Saved: the line below says how many and when (and is announced); otherwise say why not.
        if (result !== 'saved')
          setStatus({
            text: t`The cards could not be downloaded just now. They will be saved the next time you open Kinchart online.`,
            error: true,
          });
      } else {
        await stopKeepingCards(queryClient);
        setStatus({ text: t`The emergency cards were removed from this device.`, error: false });
      }
    } catch {
      setStatus({ text: t`This browser could not store the cards (private browsing can prevent it). Please try again.`, error: true });
    } finally {
      setApplying(null);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <p id={hintId} className="text-sm text-slate-700">
        <Trans>
          Your emergency card and those of your family members and pets open on this phone or computer even with no internet connection — in
          a basement, on a plane or abroad. They show what your emergency page shows after the PIN. Anyone who can unlock this device can
          read them, so turn this on only on a device that is yours. Logging out removes them.
        </Trans>
      </p>
      <Switch
        label={t`Keep emergency cards on this device`}
        checked={on}
        disabled={applying !== null || saved.isPending}
        describedBy={hintId}
        onChange={(next) => void onChange(next)}
      />
      <p role="status" className={`text-sm ${status?.error ? 'text-red-700' : status ? 'text-green-800' : 'text-slate-800'}`}>
        {status?.text ?? kept}
      </p>
      {record ? (
        <p>
          <Link to="/emergency-cards" className="text-sm font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900">
            <Trans>Open the emergency cards</Trans>
          </Link>
        </p>
      ) : null}
    </div>
  );
}
