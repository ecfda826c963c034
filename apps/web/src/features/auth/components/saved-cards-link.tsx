import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Trans } from '@lingui/react/macro';

/**
 * Whether this device keeps emergency cards (decision 0016), read from IndexedDB by hand: the login
 * page shows this link, and zod and the card schema must not come with it (decision 0017).
 */
async function deviceHasCards(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  const [{ get }, { CARDS_RECORD, cardDb }] = await Promise.all([import('idb-keyval'), import('../../../lib/offline-card-db')]);
  const record: unknown = await get(CARDS_RECORD, cardDb());
  if (typeof record !== 'object' || record === null) return false;
  const cards = (record as { cards?: unknown }).cards;
  return Array.isArray(cards) && cards.length > 0;
}

/**
 * A way to the emergency cards kept on this device (issue 30, item 22), shown only when there are
 * some: offline the login page is where a reload lands, and the cards must stay one tap away.
 */
export function SavedCardsLink({ className = '' }: { className?: string }) {
  const [hasCards, setHasCards] = useState(false);
  useEffect(() => {
    let live = true;
    deviceHasCards().then(
      (found) => {
        if (live) setHasCards(found);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (!hasCards) return null;
  return (
    <p className={className}>
      <Link to="/emergency-cards" className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
        <Trans>Open the emergency cards saved on this device</Trans>
      </Link>
    </p>
  );
}
