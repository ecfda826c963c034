import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLanguage } from '../../../i18n/language-provider';
import { EmergencyI18nProvider } from '../../emergency/components/emergency-info-view';
import { PageHeader } from '../../../components/ui/page-header';
import { Tabs } from '../../../components/ui/tabs';
import { useAuth } from '../../auth/api/check-auth';
import { cardName, SavedCard } from '../components/saved-card';
import { useOfflineCardsSync } from '../hooks/use-offline-cards-sync';
import { useOnline } from '../hooks/use-online';
import { useSavedCards } from '../hooks/use-saved-cards';
import { formatSavedAt } from '../lib/format';

const linkClass = 'font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900';

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 rounded-2xl border border-slate-300 bg-white p-5 text-slate-800 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </div>
  );
}

/**
 * /emergency-cards (DESIGN §7): the emergency cards kept on this device, readable with no network
 * at all. Outside the signed-in layout on purpose — offline the session cannot be checked, and in
 * an emergency the owner must not be sent to a login page. Only a different account signed in on
 * this browser hides them (and the sync removes them).
 */
export function OfflineCardsPage() {
  const { t } = useLingui();
  const { language } = useLanguage();
  const auth = useAuth();
  const saved = useSavedCards();
  const online = useOnline();
  const user = auth.data?.authenticated ? auth.data.user : null;
  // Signed in and online here: bring the copy up to date while the page is open.
  useOfflineCardsSync(user?.id);

  // Online, wait for the session check before showing anything: it tells whose browser this is.
  // Offline (or while the check is held back for want of a network) the cards show at once.
  const waitingForAuth = online && auth.isPending && auth.fetchStatus !== 'paused';
  if (saved.isPending || waitingForAuth) {
    return (
      <p role="status" className="py-16 text-center text-lg text-slate-700">
        <Trans>Loading...</Trans>
      </p>
    );
  }

  const record = saved.data && (!user || user.id === saved.data.userId) ? saved.data : null;
  const savedAt = formatSavedAt(record?.savedAt ?? null);
  const settingsPlace = t`Settings → Account Settings`;
  const settingsLink = user ? (
    <Link to="/settings?tab=account" className={linkClass}>
      {settingsPlace}
    </Link>
  ) : (
    settingsPlace
  );

  if (!record || record.cards.length === 0) {
    return (
      <>
        <PageHeader title={t`Emergency cards`} />
        {record ? (
          <Notice title={t`Not saved on this device yet`}>
            <p>
              <Trans>Your emergency cards will be saved here the next time you open Kinchart while signed in and online.</Trans>
            </p>
          </Notice>
        ) : (
          <Notice title={t`No emergency cards on this device`}>
            <p>
              <Trans>
                To open your emergency cards without an internet connection, sign in on this device and turn on “Keep emergency cards on
                this device” in {settingsLink}.
              </Trans>
            </p>
            {user ? null : (
              <p>
                <Link to="/login" className={linkClass}>
                  <Trans>Sign in</Trans>
                </Link>
              </p>
            )}
          </Notice>
        )}
      </>
    );
  }

  const cards = record.cards;
  const count = cards.length;
  return (
    <EmergencyI18nProvider follow={language}>
      <PageHeader
        title={t`Emergency cards`}
        subtitle={
          savedAt
            ? t`${plural(count, {
                one: `# emergency card kept on this device, saved ${savedAt}. They open with no internet connection.`,
                other: `# emergency cards kept on this device, saved ${savedAt}. They open with no internet connection.`,
              })}`
            : t`${plural(count, {
                one: '# emergency card kept on this device. They open with no internet connection.',
                other: '# emergency cards kept on this device. They open with no internet connection.',
              })}`
        }
      />
      {online ? null : (
        <p role="status" className="mb-5 rounded-xl border-2 border-amber-700 bg-amber-50 px-4 py-3 text-base font-semibold text-amber-950">
          <Trans>You are offline: these are the copies saved on this device.</Trans>
        </p>
      )}
      {cards.length === 1 && cards[0] ? (
        <SavedCard card={cards[0]} />
      ) : (
        <Tabs
          label={t`Whose emergency card`}
          items={cards.map((card) => ({ id: card.profile_id, label: cardName(card), content: <SavedCard card={card} /> }))}
        />
      )}
    </EmergencyI18nProvider>
  );
}
