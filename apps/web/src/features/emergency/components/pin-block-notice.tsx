import type { PinBlock } from '../api/use-emergency-access';
import { useEmergencyI18n } from '../i18n/use-emergency-i18n';

/**
 * DESIGN §7: the PIN is locked (5 wrong in a row) or disabled (10 in all). Say so in plain words
 * and point to the local emergency number, prominently; the essentials stay on screen.
 */
export function PinBlockNotice({ block, onRetry }: { block: PinBlock; onRetry: () => void }) {
  const { t } = useEmergencyI18n();
  const minutes = block.kind === 'locked' && block.retryAfterSeconds ? Math.max(1, Math.ceil(block.retryAfterSeconds / 60)) : undefined;
  return (
    <div role="alert" className="rounded-2xl border-4 border-red-800 bg-red-50 p-5 sm:p-6">
      <h2 className="text-2xl font-extrabold text-red-900">{block.kind === 'locked' ? t('lockedTitle') : t('disabledTitle')}</h2>
      <p className="mt-2 text-xl text-black">{block.kind === 'locked' ? t('lockedBody') : t('disabledBody')}</p>
      {minutes ? <p className="mt-2 text-lg text-black">{t('lockedRetry', { minutes })}</p> : null}
      <p className="mt-3 text-2xl font-extrabold text-black">{t('callLocalEmergency')}</p>
      {block.kind === 'locked' ? (
        <button
          type="button"
          onClick={onRetry}
          className="mt-4 min-h-14 rounded-xl bg-black px-6 py-3 text-xl font-bold text-white hover:bg-slate-800"
        >
          {t('tryAgain')}
        </button>
      ) : null}
    </div>
  );
}
