import { Fragment, type ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import {
  RELATIONSHIPS,
  type EmergencyContact,
  type FamilyMember,
  type FamilyMemberSummary,
  type ProfileValues,
} from '@kinchart/shared/profile';
import { buttonClassName } from '../../../components/ui/button';
import { PetMarker } from '../../../components/ui/pet-marker';
import { formatDate } from '../../../lib/format';

/** SPEC §9: the dashboard shows at most 3 current medications, then a more indicator. */
export const DASHBOARD_MEDICATION_LIMIT = 3;

/**
 * What the dashboard shows of one person, whichever source it came from (SPEC §4 fallbacks): the
 * profile's values and lists; a family member's relationship and a pet's fields (docs/decisions/0037)
 * only when known — absent when only the people list's entry is.
 */
export type PersonView = Pick<
  ProfileValues,
  | 'name'
  | 'date_of_birth'
  | 'phone_number'
  | 'address'
  | 'blood_type'
  | 'has_allergies'
  | 'allergy_details'
  | 'has_bleeding_disorders'
  | 'bleeding_disorder_details'
> &
  Partial<Pick<FamilyMemberSummary, 'relationship' | 'is_pet' | 'species' | 'breed' | 'microchip_number' | 'vet_name' | 'vet_phone'>> &
  Pick<FamilyMember, 'emergency_contacts' | 'medications'>;

/** SPEC §3's relationships as people read them; the stored value stays English. */
const RELATIONSHIP_LABELS: Record<(typeof RELATIONSHIPS)[number], MessageDescriptor> = {
  spouse: msg({ message: 'Spouse', context: 'relationship' }),
  child: msg({ message: 'Child', context: 'relationship' }),
  parent: msg({ message: 'Parent', context: 'relationship' }),
  sibling: msg({ message: 'Sibling', context: 'relationship' }),
  other: msg({ message: 'Other', context: 'relationship' }),
};

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One of SPEC §3's relationships in the reader's language; any other (free text, an import) as stored, capitalized. */
function relationshipText(relationship: string, translate: (descriptor: MessageDescriptor) => string): string {
  const known = RELATIONSHIPS.find((r) => r === relationship.trim().toLowerCase());
  return known ? translate(RELATIONSHIP_LABELS[known]) : capitalize(relationship);
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h3 className="text-base font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

function Details({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[minmax(0,auto)_1fr] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt className="font-medium text-slate-600">{label}</dt>
          {/* Isolated, so a value in another direction (O+, a phone number, a Latin name in Arabic) keeps its own. */}
          <dd className="min-w-0 break-words text-slate-900">
            <bdi>{value}</bdi>
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

function Warning({ title, details }: { title: string; details: string | null }) {
  return (
    <div className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" focusable="false" className="mt-0.5 size-4 shrink-0 text-amber-700">
        <path d="M10 2 1 18h18L10 2Zm-1 6h2v5H9V8Zm0 6h2v2H9v-2Z" />
      </svg>
      <p>
        <strong className="font-semibold">
          <Trans>Warning: {title}</Trans>
        </strong>
        {details ? (
          <span className="block break-words">
            <bdi>{details}</bdi>
          </span>
        ) : null}
      </p>
    </div>
  );
}

function PhoneLink({ phone }: { phone: string }) {
  return (
    <a href={`tel:${phone}`} dir="ltr" className="font-medium text-brand-700 underline underline-offset-2">
      {phone}
    </a>
  );
}

/** A pet's Basic Info rows in place of a blood type (issue 30 #25): what it is, its chip, its vet. */
function petRows(pet: PersonView): [string, ReactNode][] {
  const notProvided = t`Not provided`;
  const vet = pet.vet_phone ? (
    <>
      {pet.vet_name ? `${pet.vet_name} · ` : null}
      <PhoneLink phone={pet.vet_phone} />
    </>
  ) : (
    pet.vet_name || notProvided
  );
  return [
    [t`Species`, pet.species || notProvided],
    [t`Breed`, pet.breed || notProvided],
    [t`Microchip`, pet.microchip_number || notProvided],
    [t`Vet`, vet],
  ];
}

/** The contact marked primary, else the first one. */
export function primaryContact(contacts: EmergencyContact[]): EmergencyContact | undefined {
  return contacts.find((c) => c.is_primary) ?? contacts[0];
}

export interface ProfileInformationProps {
  person: PersonView | undefined;
  /** True while the person's data is still on its way. */
  loading: boolean;
  /** Where the edit link goes (the profile editor or the member page). */
  editHref: string | null;
  editLabel: string;
  /** The QR image slot (SPEC §2 dashboard; filled by the emergency feature). */
  qr?: ReactNode;
  /** Beside the heading: who shares this person and the user's access (DESIGN §11). */
  sharing?: ReactNode;
  /** Beside the edit link: the way to the person's health records (DESIGN §12), for viewers too. */
  links?: ReactNode;
}

/** SPEC §2 Profile Information: Basic Info, Critical Medical Info, Primary Emergency Contact, Current Medications. */
export function ProfileInformation({ person, loading, editHref, editLabel, qr, sharing, links }: ProfileInformationProps) {
  const { t } = useLingui();
  const NOT_PROVIDED = t`Not provided`;
  const isMember = person?.relationship !== undefined;
  const current = (person?.medications ?? []).filter((m) => m.is_current);
  const shown = current.slice(0, DASHBOARD_MEDICATION_LIMIT);
  const more = current.length - shown.length;
  const contact = primaryContact(person?.emergency_contacts ?? []);
  const value = (v: string | null | undefined) => (v ? v : NOT_PROVIDED);

  const basicRows: [string, ReactNode][] = [
    [t`Name`, value(person?.name)],
    [t`Date of Birth`, person?.date_of_birth ? formatDate(person.date_of_birth) : NOT_PROVIDED],
    ...(person?.is_pet ? petRows(person) : []),
    [t`Phone`, value(person?.phone_number)],
    [t`Address`, value(person?.address)],
  ];
  if (isMember) basicRows.push([t`Relationship`, person?.relationship ? relationshipText(person.relationship, t) : NOT_PROVIDED]);

  return (
    <section aria-labelledby="profile-information-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="profile-information-heading" className="text-xl font-semibold text-slate-900">
            <Trans>Profile Information</Trans>
          </h2>
          {person?.is_pet ? <PetMarker className="size-5 text-amber-700" /> : null}
          {sharing}
        </div>
        {editHref || links ? (
          <div className="flex flex-wrap gap-2">
            {links}
            {editHref ? (
              <Link to={editHref} className={buttonClassName('secondary', 'sm')}>
                {editLabel}
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>
      {loading ? (
        <p role="status" className="text-slate-700">
          <Trans>Loading profile...</Trans>
        </p>
      ) : null}
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <div className="grid min-w-0 flex-1 gap-4 md:grid-cols-2">
          <Block title={t`Basic Info`}>
            <Details rows={basicRows} />
          </Block>

          <Block title={t`Critical Medical Info`}>
            {person?.is_pet ? null : <Details rows={[[t`Blood Type`, value(person?.blood_type)]]} />}
            {person?.has_allergies ? <Warning title={t`Allergies`} details={person.allergy_details} /> : null}
            {person?.has_bleeding_disorders ? <Warning title={t`Bleeding Disorder`} details={person.bleeding_disorder_details} /> : null}
            {person && !person.has_allergies && !person.has_bleeding_disorders ? (
              <p className="text-sm text-slate-700">
                <Trans>No allergy or bleeding disorder recorded.</Trans>
              </p>
            ) : null}
          </Block>

          <Block title={t`Primary Emergency Contact`}>
            {contact ? (
              <Details
                rows={[
                  [t`Name`, contact.name],
                  [t`Relationship`, value(contact.relationship)],
                  [t`Phone`, contact.phone_number ? <PhoneLink phone={contact.phone_number} /> : NOT_PROVIDED],
                ]}
              />
            ) : (
              <p className="text-sm text-slate-700">
                <Trans>No emergency contact added</Trans>
              </p>
            )}
          </Block>

          <Block title={t`Current Medications`}>
            {shown.length === 0 ? (
              <p className="text-sm text-slate-700">
                <Trans>No current medications</Trans>
              </p>
            ) : (
              <ul className="flex flex-col gap-2 text-sm">
                {shown.map((m) => (
                  <li key={m.id} className="rounded-lg bg-slate-50 px-3 py-2">
                    <span className="font-semibold break-words text-slate-900">
                      <bdi>{m.medication_name || t`Unnamed medication`}</bdi>
                    </span>
                    {m.dosage || m.frequency ? (
                      <span className="block text-slate-700">
                        <bdi>{[m.dosage, m.frequency].filter(Boolean).join(' · ')}</bdi>
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
            {more > 0 ? (
              <p className="text-sm font-semibold text-brand-800">
                <Plural value={more} one="+# more" other="+# more" />
              </p>
            ) : null}
          </Block>
        </div>
        {/* Hidden while the slot renders nothing (no active code); narrow so the link under the code wraps. */}
        <div className="flex justify-center empty:hidden lg:w-60 lg:shrink-0">{qr}</div>
      </div>
    </section>
  );
}
