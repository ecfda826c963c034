import { useLingui } from '@lingui/react/macro';
import type { NotificationFilter } from '@kinchart/shared/notifications';
import { FILTERS } from '../utils/notification-list';

/** The filter buttons (SPEC §2: all, unread, qr_access, error, warning, info); the chosen one is pressed. */
export function NotificationFilters({ value, onChange }: { value: NotificationFilter; onChange: (filter: NotificationFilter) => void }) {
  const { t } = useLingui();
  return (
    <div role="group" aria-label={t`Show notifications`} className="flex flex-wrap gap-2">
      {FILTERS.map((filter) => {
        const pressed = filter.value === value;
        return (
          <button
            key={filter.value}
            type="button"
            aria-pressed={pressed}
            data-filter={filter.value}
            onClick={() => onChange(filter.value)}
            className={`min-h-9 rounded-full border px-3.5 py-1.5 text-sm font-semibold transition-colors ${
              pressed ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'
            }`}
          >
            {t(filter.label)}
          </button>
        );
      })}
    </div>
  );
}
