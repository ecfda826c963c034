import type { ReactNode } from 'react';
import type { EmergencyAllergy } from '@kinchart/shared/emergency';
import type { EmergencyEssentials, EmergencyInfo } from '../api/get-emergency-info';
import { formatAgeFromBirthDate, formatAgeYears, formatInstantDate, isViewerLanguage } from '../i18n/format';
import type { Locale, Translate } from '../i18n/locales';
import { useEmergencyI18n } from '../i18n/use-emergency-i18n';

/*
 * DESIGN §7 "Critical facts and a call button fill the first phone screen": the few facts a
 * responder acts on in the first minute, in big type, before the SPEC's six sections. Built from
 * the PIN answer or from an opted-in code's essentials; the user's own text is shown as entered.
 */

export interface CriticalFacts {
  name: string | null;
  age: string | null;
  bloodType: string | null;
  /** A pet's species and breed, in place of a blood type (docs/decisions/0037). */
  species: string | null;
  allergies: string | null;
  bleedingDisorder: string | null;
  conditions: string | null;
  medications: string[];
  /** Shown only when it is not the viewer's language. */
  primaryLanguage: string | null;
  contact: { name: string; relationship: string | null; phone: string | null } | null;
  updatedAt: string | null;
}

export function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** SPEC §5: a priority item (allergies, bleeding disorder) counts only when its flag is set and its text is present. */
function priority(flag: boolean, details: string | null): string | null {
  return flag ? text(details) : null;
}

const SEVERITY_KEYS = { mild: 'severityMild', moderate: 'severityModerate', severe: 'severitySevere' } as const;

/**
 * Issue 34 (docs/decisions/0053): the allergy entries one a line, high criticality first, each
 * with its reactions — "Penicillin — anaphylaxis (severe, high criticality)" — in place of the
 * details text they were written into; null without entries (the details text then shows).
 */
export function allergyLines(entries: readonly EmergencyAllergy[], t: Translate): string | null {
  const high = (e: EmergencyAllergy) => e.criticality === 'high';
  const lines = [...entries.filter(high), ...entries.filter((e) => !high(e))].map((e) => {
    const reactions = e.reactions.map(text).filter(Boolean).join(', ');
    const notes = [e.severity && t(SEVERITY_KEYS[e.severity]), high(e) && t('highCriticality')].filter(Boolean).join(', ');
    return `${e.substance}${reactions ? ` — ${reactions}` : ''}${notes ? ` (${notes})` : ''}`;
  });
  return lines.length > 0 ? lines.join('\n') : null;
}

/** A pet's owner as the one to call when the pet has no primary contact of its own. */
function ownerToCall(info: EmergencyInfo, t: Translate): CriticalFacts['contact'] {
  const phone = info.is_pet ? text(info.owner?.phone_number) : null;
  if (!info.is_pet || !phone) return null;
  return { name: text(info.owner?.name) ?? t('owner'), relationship: t('owner'), phone };
}

export function factsFromInfo(info: EmergencyInfo, locale: Locale, t: Translate): CriticalFacts {
  const primary = info.emergency_contacts.find((c) => c.is_primary) ?? null;
  const language = info.is_pet ? null : text(info.primary_language);
  return {
    name: text(info.name),
    age: formatAgeFromBirthDate(locale, info.date_of_birth),
    bloodType: info.is_pet ? null : text(info.blood_type),
    species: info.is_pet ? [text(info.species), text(info.breed)].filter(Boolean).join(', ') || null : null,
    allergies: info.has_allergies ? (allergyLines(info.allergy_entries, t) ?? text(info.allergy_details)) : null,
    bleedingDisorder: priority(info.has_bleeding_disorders, info.bleeding_disorder_details),
    conditions: text(info.chronic_condition_details) ?? (info.has_chronic_conditions ? t('yes') : null),
    medications: info.medications.map((m) => text(m.medication_name)).filter((m): m is string => m !== null),
    primaryLanguage: language && !isViewerLanguage(locale, language) ? language : null,
    contact: primary
      ? { name: primary.name, relationship: text(primary.relationship), phone: text(primary.phone_number) }
      : ownerToCall(info, t),
    updatedAt: formatInstantDate(locale, info.updated_at),
  };
}

export function factsFromEssentials(essentials: EmergencyEssentials, locale: Locale, t: Translate): CriticalFacts {
  const contact = essentials.primary_contact;
  return {
    name: text(essentials.name),
    age: formatAgeYears(locale, essentials.age),
    bloodType: essentials.is_pet ? null : text(essentials.blood_type),
    species: essentials.is_pet ? text(essentials.species) : null,
    allergies: essentials.allergies === null ? null : (allergyLines(essentials.allergy_entries, t) ?? text(essentials.allergies)),
    bleedingDisorder: text(essentials.bleeding_disorder),
    conditions: text(essentials.conditions),
    medications: essentials.medications.map(text).filter((m): m is string => m !== null),
    primaryLanguage: null,
    contact: contact ? { name: contact.name, relationship: null, phone: text(contact.phone_number) } : null,
    updatedAt: formatInstantDate(locale, essentials.updated_at),
  };
}

/**
 * A detail typed over several lines (one condition a line, say) keeps each line on its own line,
 * rather than running together as one ("Asthma Leukemia").
 */
export function Lines({ value }: { value: string }) {
  const lines = value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length < 2) return <>{value}</>;
  return (
    <>
      {lines.map((line, index) => (
        <span key={index} className="block">
          {line}
        </span>
      ))}
    </>
  );
}

function Fact({
  label,
  children,
  tone = 'plain',
  wide = true,
  testId,
}: {
  label: string;
  children: ReactNode;
  tone?: 'plain' | 'warning';
  wide?: boolean;
  testId: string;
}) {
  const frame = tone === 'warning' ? 'border-4 border-red-800 bg-red-50' : 'border-2 border-slate-800 bg-white';
  return (
    <div data-testid={testId} className={`rounded-xl px-3 py-1 ${frame} ${wide ? 'col-span-2' : ''}`}>
      <dt className={`text-sm font-extrabold tracking-wide uppercase ${tone === 'warning' ? 'text-red-900' : 'text-slate-800'}`}>
        {label}
      </dt>
      <dd className="text-xl leading-snug font-bold break-words text-black">{children}</dd>
    </div>
  );
}

function PhoneIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7 shrink-0" fill="currentColor">
      <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.46.57 3.6a1 1 0 0 1-.25 1z" />
    </svg>
  );
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+*#,;]/g, '')}`;
}

/** The big call button for the primary emergency contact. */
function CallPrimary({ contact }: { contact: NonNullable<CriticalFacts['contact']> & { phone: string } }) {
  const { t } = useEmergencyI18n();
  const label = contact.relationship
    ? t('callContact', { name: contact.name, relationship: contact.relationship })
    : t('callName', { name: contact.name });
  return (
    <a
      href={telHref(contact.phone)}
      aria-label={label}
      data-testid="call-primary"
      className="flex min-h-16 w-full items-center gap-3 rounded-2xl bg-green-800 px-4 py-2 text-white hover:bg-green-900"
    >
      <PhoneIcon />
      <span className="flex min-w-0 flex-col">
        <span className="text-xl leading-tight font-extrabold break-words">{label}</span>
        <span className="text-lg leading-tight font-semibold">{contact.phone}</span>
      </span>
    </a>
  );
}

/**
 * Name and age, blood type (a pet: species and breed), allergies, conditions, bleeding disorder, medication names, the
 * patient's language when it differs, the call button and the date of the last change.
 */
export function CriticalSummary({ facts, heading, isPet = false }: { facts: CriticalFacts; heading: ReactNode; isPet?: boolean }) {
  const { t } = useEmergencyI18n();
  const { contact } = facts;
  return (
    <section aria-label={t('summaryTitle')} className="flex flex-col gap-2">
      {heading}
      <div data-testid="critical-name">
        <p className="text-3xl leading-tight font-extrabold break-words text-black">{facts.name ?? t('notProvided')}</p>
        {facts.age ? (
          <p className="text-xl font-semibold text-black">
            <span className="sr-only">{t('age')}: </span>
            {facts.age}
          </p>
        ) : null}
        {isPet ? <p className="text-lg font-semibold text-black">{t('petProfile')}</p> : null}
      </div>
      <dl className="grid grid-cols-2 gap-1.5">
        {isPet ? (
          facts.species ? (
            <Fact label={t('species')} testId="critical-species">
              {facts.species}
            </Fact>
          ) : null
        ) : (
          <Fact label={t('bloodType')} wide={!facts.primaryLanguage} testId="critical-blood-type">
            <span className="text-2xl font-extrabold">{facts.bloodType ?? t('notProvided')}</span>
          </Fact>
        )}
        {facts.primaryLanguage ? (
          <Fact label={t('primaryLanguage')} wide={false} testId="critical-language">
            {facts.primaryLanguage}
          </Fact>
        ) : null}
        {facts.allergies ? (
          <Fact label={t('allergies')} tone="warning" testId="critical-allergies">
            <Lines value={facts.allergies} />
          </Fact>
        ) : null}
        {facts.bleedingDisorder ? (
          <Fact label={t('bleedingDisorder')} tone="warning" testId="critical-bleeding">
            <Lines value={facts.bleedingDisorder} />
          </Fact>
        ) : null}
        {facts.conditions ? (
          <Fact label={t('chronicConditions')} testId="critical-conditions">
            <Lines value={facts.conditions} />
          </Fact>
        ) : null}
        <Fact label={t('medicationsTitle')} testId="critical-medications">
          {facts.medications.length > 0 ? facts.medications.join(', ') : t('notProvided')}
        </Fact>
      </dl>
      {contact?.phone ? <CallPrimary contact={{ ...contact, phone: contact.phone }} /> : null}
      {facts.updatedAt ? <p className="text-base text-slate-800">{t('lastUpdated', { date: facts.updatedAt })}</p> : null}
    </section>
  );
}
