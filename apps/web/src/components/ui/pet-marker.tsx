import { Trans, useLingui } from '@lingui/react/macro';
/** A paw print. Decorative unless given a label. */
export function PawIcon({ label, className = 'size-4' }: { label?: string; className?: string }) {
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" focusable="false" className={className} {...a11y}>
      <ellipse cx="5" cy="10" rx="2.2" ry="2.7" />
      <ellipse cx="9.3" cy="5.2" rx="2.2" ry="2.8" />
      <ellipse cx="14.7" cy="5.2" rx="2.2" ry="2.8" />
      <ellipse cx="19" cy="10" rx="2.2" ry="2.7" />
      <path d="M12 10.8c-2.9 0-6.4 4.1-6.4 6.9 0 1.6 1.2 2.7 2.8 2.7 1.5 0 2.3-.8 3.6-.8s2.1.8 3.6.8c1.6 0 2.8-1.1 2.8-2.7 0-2.8-3.5-6.9-6.4-6.9z" />
    </svg>
  );
}

/** SPEC §2: pets carry a paw marker; screen readers hear 'Pet'. */
export function PetMarker({ className = 'size-4' }: { className?: string }) {
  const { t } = useLingui();
  return <PawIcon label={t`Pet`} className={className} />;
}

/** The paw with a visible 'Pet' word, for cards. */
export function PetBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      <PawIcon className="size-3.5" />
      <Trans>Pet</Trans>
    </span>
  );
}
