import type { ReactNode } from 'react';
import type { EmergencyInfo } from '../api/get-emergency-info';

/*
 * The read-only view a first responder sees after the right PIN (SPEC §2 Emergency page states,
 * §5 Emergency view). Read on a phone, outdoors, in a hurry: black on white, large type, the
 * priority alerts first and framed in red, phone numbers as big call links.
 */

export const NOT_PROVIDED = 'Not Provided';

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function yesNo(flag: boolean): string {
  return flag ? 'Yes' : 'No';
}

const CM_PER_INCH = 2.54;
const LB_PER_KG = 2.20462;

function formatHeight(cm: number | null): string | null {
  if (cm === null || !(cm > 0)) return null;
  const inches = Math.round(cm / CM_PER_INCH);
  return `${Math.round(cm)} cm (${Math.floor(inches / 12)} ft ${inches % 12} in)`;
}

function formatWeight(kg: number | null): string | null {
  if (kg === null || !(kg > 0)) return null;
  return `${Math.round(kg * 10) / 10} kg (${Math.round(kg * LB_PER_KG * 10) / 10} lb)`;
}

/** "March 4, 1980 (45 years old)"; the date is a calendar date, so it is read as UTC. */
export function formatBirthDate(value: string | null, now = new Date()): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return text(value);
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  const formatted = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
  let age = now.getUTCFullYear() - date.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < date.getUTCMonth() || (now.getUTCMonth() === date.getUTCMonth() && now.getUTCDate() < date.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age >= 0 ? `${formatted} (${age === 1 ? '1 year' : `${age} years`} old)` : formatted;
}

/** A condition pair: the details when given, 'Yes' for a bare flag, otherwise 'Not Provided'. */
function condition(flag: boolean, details: string | null): string | null {
  return text(details) ?? (flag ? 'Yes' : null);
}

/** SPEC §5: a priority item shows only when its flag is set and its text is present. */
export function priorityItems(info: EmergencyInfo): { label: string; details: string }[] {
  const items: { label: string; details: string }[] = [];
  const add = (flag: boolean, label: string, details: string | null) => {
    const value = text(details);
    if (flag && value) items.push({ label, details: value });
  };
  add(info.has_allergies, 'Allergies', info.allergy_details);
  add(info.had_anesthesia_reactions, 'Anesthesia Reactions', info.anesthesia_reaction_details);
  add(info.has_bleeding_disorders, 'Bleeding Disorder', info.bleeding_disorder_details);
  return items;
}

function Section({ title, children, tone = 'plain' }: { title: string; children: ReactNode; tone?: 'plain' | 'priority' }) {
  const id = `emergency-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={
        tone === 'priority'
          ? 'rounded-2xl border-4 border-red-800 bg-red-50 p-4 sm:p-6'
          : 'rounded-2xl border-2 border-slate-800 bg-white p-4 sm:p-6'
      }
    >
      <h2 id={id} className={`mb-3 text-2xl font-extrabold ${tone === 'priority' ? 'text-red-900' : 'text-black'}`}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Label and value rows; a missing value reads 'Not Provided' (SPEC §5). */
function Facts({ rows }: { rows: [label: string, value: string | null][] }) {
  return (
    <dl className="divide-y divide-slate-300">
      {rows.map(([label, value]) => (
        <div key={label} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:gap-4">
          <dt className="text-base font-bold text-slate-800 sm:w-56 sm:shrink-0 sm:text-lg">{label}</dt>
          <dd className={`text-xl break-words ${value === null ? 'text-slate-700 italic' : 'font-semibold text-black'}`}>
            {value ?? NOT_PROVIDED}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function NotProvided() {
  return <p className="text-xl text-slate-700 italic">{NOT_PROVIDED}</p>;
}

function Badge({ children }: { children: ReactNode }) {
  return <span className="rounded-full border-2 border-black px-2.5 py-0.5 text-sm font-bold text-black">{children}</span>;
}

function CallLink({ phone, name }: { phone: string; name: string }) {
  return (
    <a
      href={`tel:${phone.replace(/[^\d+*#,;]/g, '')}`}
      aria-label={`Call ${name} at ${phone}`}
      className="inline-flex min-h-12 items-center gap-2 rounded-xl bg-green-800 px-4 py-2 text-xl font-bold text-white hover:bg-green-900"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="currentColor">
        <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.46.57 3.6a1 1 0 0 1-.25 1z" />
      </svg>
      {phone}
    </a>
  );
}

export function EmergencyInfoView({ info }: { info: EmergencyInfo }) {
  const priority = priorityItems(info);
  const name = text(info.name);
  return (
    <div className="flex flex-col gap-5">
      <div>
        <h1 className="text-lg font-bold tracking-wide text-red-900 uppercase">Emergency information</h1>
        <p className="mt-1 text-4xl font-extrabold break-words text-black">{name ?? NOT_PROVIDED}</p>
        {info.is_pet ? <p className="mt-1 text-xl font-semibold text-black">This profile is for a pet.</p> : null}
      </div>

      <Section title="Priority Medical Information" tone="priority">
        {priority.length > 0 ? (
          <ul className="flex flex-col gap-3">
            {priority.map((item) => (
              <li key={item.label} className="rounded-xl border-2 border-red-800 bg-white p-3">
                <p className="text-lg font-extrabold text-red-900 uppercase">{item.label}</p>
                <p className="text-2xl font-bold break-words text-black">{item.details}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xl text-black">No allergies, anesthesia reactions or bleeding disorders recorded.</p>
        )}
      </Section>

      <Section title="Patient Information">
        <Facts
          rows={[
            ['Name', name],
            ['Date of Birth', formatBirthDate(info.date_of_birth)],
            ...(text(info.relationship) ? ([['Relationship', text(info.relationship)]] as [string, string | null][]) : []),
            ['Blood Type', text(info.blood_type)],
            ['Height', formatHeight(info.height)],
            ['Weight', formatWeight(info.weight)],
            ['Primary Language', text(info.primary_language)],
            ['Vision Impairment', yesNo(info.has_vision_impairment)],
            ['Hearing Impairment', yesNo(info.has_hearing_impairment)],
          ]}
        />
      </Section>

      <Section title="Medical Conditions">
        <Facts
          rows={[
            ['Chronic Conditions', condition(info.has_chronic_conditions, info.chronic_condition_details)],
            ['Previous Surgeries', condition(info.has_previous_surgeries, info.surgery_details)],
            ['Mobility Issues', condition(info.has_mobility_issues, info.mobility_details)],
          ]}
        />
      </Section>

      <Section title="Current Medications">
        {info.medications.length > 0 ? (
          <ul className="divide-y divide-slate-300">
            {info.medications.map((med, index) => {
              const details = [text(med.dosage), text(med.frequency)].filter(Boolean).join(' · ');
              return (
                <li key={`${med.medication_name ?? ''}-${index}`} className="py-2">
                  <p className="text-xl font-bold break-words text-black">{text(med.medication_name) ?? NOT_PROVIDED}</p>
                  <p className="text-lg break-words text-black">{details || `Dose: ${NOT_PROVIDED}`}</p>
                  {text(med.purpose) ? <p className="text-lg break-words text-slate-800">For: {text(med.purpose)}</p> : null}
                </li>
              );
            })}
          </ul>
        ) : (
          <NotProvided />
        )}
      </Section>

      <Section title="Contact Information">
        <h3 className="mb-2 text-xl font-bold text-black">Emergency Contacts</h3>
        {info.emergency_contacts.length > 0 ? (
          <ul className="mb-5 flex flex-col gap-3">
            {info.emergency_contacts.map((contact, index) => (
              <li key={`${contact.name}-${index}`} className="rounded-xl border-2 border-slate-400 p-3">
                <p className="text-xl font-bold break-words text-black">{contact.name}</p>
                <p className="text-lg text-black">{text(contact.relationship) ?? `Relationship: ${NOT_PROVIDED}`}</p>
                {contact.is_primary || contact.has_medical_power ? (
                  <p className="my-2 flex flex-wrap gap-2">
                    {contact.is_primary ? <Badge>Primary contact</Badge> : null}
                    {contact.has_medical_power ? <Badge>Medical power of attorney</Badge> : null}
                  </p>
                ) : null}
                <div className="mt-2 flex flex-col items-start gap-2">
                  {text(contact.phone_number) ? (
                    <CallLink phone={text(contact.phone_number) ?? ''} name={contact.name} />
                  ) : (
                    <p className="text-lg text-slate-700 italic">Phone: {NOT_PROVIDED}</p>
                  )}
                  {text(contact.email) ? (
                    <a href={`mailto:${text(contact.email) ?? ''}`} className="text-lg break-all text-blue-800 underline">
                      {text(contact.email)}
                    </a>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <div className="mb-5">
            <NotProvided />
          </div>
        )}

        <h3 className="mb-2 text-xl font-bold text-black">Healthcare Providers</h3>
        {info.healthcare_providers.length > 0 ? (
          <ul className="flex flex-col gap-3">
            {info.healthcare_providers.map((provider, index) => (
              <li key={`${provider.provider_name}-${index}`} className="rounded-xl border-2 border-slate-400 p-3">
                <p className="text-xl font-bold break-words text-black">{provider.provider_name}</p>
                <p className="text-lg break-words text-black">
                  {[text(provider.specialty), text(provider.facility)].filter(Boolean).join(', ') || `Practice: ${NOT_PROVIDED}`}
                </p>
                {provider.is_primary ? (
                  <p className="my-2">
                    <Badge>Primary care provider</Badge>
                  </p>
                ) : null}
                <div className="mt-2">
                  {text(provider.phone_number) ? (
                    <CallLink phone={text(provider.phone_number) ?? ''} name={provider.provider_name} />
                  ) : (
                    <p className="text-lg text-slate-700 italic">Phone: {NOT_PROVIDED}</p>
                  )}
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <NotProvided />
        )}
      </Section>

      <Section title="Medical Directives">
        <Facts
          rows={[
            ['Organ Donor', yesNo(info.organ_donor)],
            ['Advance Directives', yesNo(info.advance_directives)],
            ['Living Will', yesNo(info.living_will)],
            ['Religious Restrictions', text(info.religious_restrictions)],
          ]}
        />
      </Section>

      <p className="text-base text-slate-800">
        This information was entered by the patient or their family and may be incomplete. It is shown read-only.
      </p>
    </div>
  );
}
