import { Trans, useLingui } from '@lingui/react/macro';
import type { Person } from '@kinchart/shared/people';
import { PetMarker } from '../../../components/ui/pet-marker';
import { SharedByBadge } from '../../../components/ui/shared-by-badge';

export interface ProfileSwitcherProps {
  /** Everyone but yourself: your family members, then the people shared with you. */
  people: readonly Person[];
  /** null for My Profile. */
  selectedId: string | null;
  onSelect: (personId: string | null) => void;
}

const base = 'inline-flex min-h-11 flex-wrap items-center gap-2 rounded-full border px-4 py-2 text-sm font-semibold transition-colors';
const on = 'border-brand-700 bg-brand-700 text-white';
const off = 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100';

/**
 * SPEC §2: a My Profile button and one button per family member; pets carry a paw marker. People
 * shared with the user follow, each with a "Shared by {username}" badge (DESIGN §11).
 */
export function ProfileSwitcher({ people, selectedId, onSelect }: ProfileSwitcherProps) {
  const { t } = useLingui();
  return (
    <div role="group" aria-label={t`Whose profile to show`} className="flex flex-wrap gap-2">
      <button
        type="button"
        aria-pressed={selectedId === null}
        className={`${base} ${selectedId === null ? on : off}`}
        onClick={() => onSelect(null)}
      >
        <Trans>My Profile</Trans>
      </button>
      {people.map((person) => {
        const selected = person.id === selectedId;
        return (
          <button
            key={person.id}
            type="button"
            aria-pressed={selected}
            className={`${base} ${selected ? on : off}`}
            onClick={() => onSelect(person.id)}
          >
            <bdi>{person.name?.trim() || t`Unnamed member`}</bdi>
            {person.is_pet ? <PetMarker className="size-4" /> : null}
            {/* The space keeps the name and the badge apart for screen readers; the flex gap does it on screen. */}
            {person.shared_by !== null ? (
              <>
                {' '}
                <SharedByBadge username={person.shared_by} />
              </>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
