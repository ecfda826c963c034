import type { FamilyMemberSummary } from '@kinchart/shared/profile';
import { PetMarker } from '../../../components/ui/pet-marker';

export interface ProfileSwitcherProps {
  members: FamilyMemberSummary[];
  /** null for My Profile. */
  selectedId: string | null;
  onSelect: (memberId: string | null) => void;
}

const base = 'inline-flex min-h-11 items-center gap-2 rounded-full border px-4 py-2 text-sm font-semibold transition-colors';
const on = 'border-brand-700 bg-brand-700 text-white';
const off = 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100';

/** SPEC §2: a My Profile button and one button per family member; pets carry a paw marker. */
export function ProfileSwitcher({ members, selectedId, onSelect }: ProfileSwitcherProps) {
  return (
    <div role="group" aria-label="Whose profile to show" className="flex flex-wrap gap-2">
      <button type="button" aria-pressed={selectedId === null} className={`${base} ${selectedId === null ? on : off}`} onClick={() => onSelect(null)}>
        My Profile
      </button>
      {members.map((member) => {
        const selected = member.id === selectedId;
        return (
          <button
            key={member.id}
            type="button"
            aria-pressed={selected}
            className={`${base} ${selected ? on : off}`}
            onClick={() => onSelect(member.id)}
          >
            {member.name?.trim() || 'Unnamed member'}
            {member.is_pet ? <PetMarker className="size-4" /> : null}
          </button>
        );
      })}
    </div>
  );
}
