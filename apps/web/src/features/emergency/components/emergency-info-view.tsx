import type { ReactNode } from 'react';
import type { EmergencyInfo, PetEmergencyInfo } from '../api/get-emergency-info';
import { formatAgeFromBirthDate, formatCalendarDate, formatHeight, formatWeight } from '../i18n/format';
import type { MessageKey, Translate } from '../i18n/locales';
import { useEmergencyI18n } from '../i18n/use-emergency-i18n';

/** For a screen of the app that shows this view (the kept emergency cards): its texts in the app's language. */
export { EmergencyI18nProvider } from '../i18n/use-emergency-i18n';
import { allergyLines, CriticalSummary, factsFromInfo, Lines, telHref, text } from './critical-summary';

/*
 * The read-only view a first responder sees after the right PIN (SPEC §2 Emergency page states,
 * §5 Emergency view; DESIGN §7). Read on a phone, outdoors, in a hurry: the critical facts and a
 * call button first, then the six SPEC sections; black on white, large type, the priority alerts
 * framed in red, phone numbers as big call links. Labels follow the responder's language; what
 * the user typed is shown as entered.
 */

/** "March 4, 1980 (45 years old)" in the viewer's language; the date is a calendar date (UTC). */
function birthDateWithAge(value: string | null, t: Translate, locale: Parameters<typeof formatCalendarDate>[0]): string | null {
  const date = formatCalendarDate(locale, value);
  if (!date) return text(value);
  const age = formatAgeFromBirthDate(locale, value);
  return age ? t('birthDateWithAge', { date, age }) : date;
}

/** A condition pair: the details when given, 'Yes' for a bare flag, otherwise 'Not Provided'. */
function condition(flag: boolean, details: string | null, t: Translate): string | null {
  return text(details) ?? (flag ? t('yes') : null);
}

/** SPEC §5: a priority item shows only when its flag is set and its text is present; allergies as their entries when there are some. */
export function priorityItems(info: EmergencyInfo, t: Translate): { label: MessageKey; details: string }[] {
  const items: { label: MessageKey; details: string }[] = [];
  const add = (flag: boolean, label: MessageKey, details: string | null) => {
    const value = text(details);
    if (flag && value) items.push({ label, details: value });
  };
  add(info.has_allergies, 'allergies', allergyLines(info.allergy_entries, t) ?? info.allergy_details);
  add(info.had_anesthesia_reactions, 'anesthesiaReactions', info.anesthesia_reaction_details);
  add(info.has_bleeding_disorders, 'bleedingDisorder', info.bleeding_disorder_details);
  return items;
}

function Section({ id, title, children, tone = 'plain' }: { id: string; title: string; children: ReactNode; tone?: 'plain' | 'priority' }) {
  const headingId = `emergency-${id}`;
  return (
    <section
      aria-labelledby={headingId}
      className={
        tone === 'priority'
          ? 'rounded-2xl border-4 border-red-800 bg-red-50 p-4 sm:p-6'
          : 'rounded-2xl border-2 border-slate-800 bg-white p-4 sm:p-6'
      }
    >
      <h2 id={headingId} className={`mb-3 text-2xl font-extrabold ${tone === 'priority' ? 'text-red-900' : 'text-black'}`}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Label and value rows; a missing value reads 'Not Provided' (SPEC §5). */
function Facts({ rows }: { rows: [label: string, value: string | null][] }) {
  const { t } = useEmergencyI18n();
  return (
    <dl className="divide-y divide-slate-300">
      {rows.map(([label, value]) => (
        <div key={label} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:gap-4">
          <dt className="text-base font-bold text-slate-800 sm:w-56 sm:shrink-0 sm:text-lg">{label}</dt>
          <dd className={`text-xl break-words ${value === null ? 'text-slate-700 italic' : 'font-semibold text-black'}`}>
            {value === null ? t('notProvided') : <Lines value={value} />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function NotProvided() {
  const { t } = useEmergencyI18n();
  return <p className="text-xl text-slate-700 italic">{t('notProvided')}</p>;
}

function Badge({ children }: { children: ReactNode }) {
  return <span className="rounded-full border-2 border-black px-2.5 py-0.5 text-sm font-bold text-black">{children}</span>;
}

function CallLink({ phone, name }: { phone: string; name: string }) {
  const { t } = useEmergencyI18n();
  return (
    <a
      href={telHref(phone)}
      aria-label={t('callAt', { name, phone })}
      className="inline-flex min-h-12 items-center gap-2 rounded-xl bg-green-800 px-4 py-2 text-xl font-bold text-white hover:bg-green-900"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="currentColor">
        <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.46.57 3.6a1 1 0 0 1-.25 1z" />
      </svg>
      {phone}
    </a>
  );
}

/** One person to call: a name and the call link, or 'Not Provided' for the phone. */
function Callable({ name, phone }: { name: string; phone: string | null }) {
  const { t } = useEmergencyI18n();
  return (
    <div className="mb-5 rounded-xl border-2 border-slate-400 p-3">
      <p className="text-xl font-bold break-words text-black">{name}</p>
      <div className="mt-2">
        {phone ? (
          <CallLink phone={phone} name={name} />
        ) : (
          <p className="text-lg text-slate-700 italic">
            {t('phone')}: {t('notProvided')}
          </p>
        )}
      </div>
    </div>
  );
}

/** A pet's owner (when known) and vet, first in its Contact Information (docs/decisions/0037). */
function OwnerAndVet({ info }: { info: PetEmergencyInfo }) {
  const { t } = useEmergencyI18n();
  const vetName = text(info.vet_name);
  const vetPhone = text(info.vet_phone);
  return (
    <>
      {info.owner ? (
        <>
          <h3 className="mb-2 text-xl font-bold text-black">{t('owner')}</h3>
          <Callable name={text(info.owner.name) ?? t('owner')} phone={text(info.owner.phone_number)} />
        </>
      ) : null}
      <h3 className="mb-2 text-xl font-bold text-black">{t('vet')}</h3>
      {vetName || vetPhone ? (
        <Callable name={vetName ?? t('vet')} phone={vetPhone} />
      ) : (
        <div className="mb-5">
          <NotProvided />
        </div>
      )}
    </>
  );
}

/**
 * `aside`: shown beside the page title (the language switcher). `titleLevel` 2 when the view sits
 * under a page's own h1 (the owner's kept emergency cards).
 */
export function EmergencyInfoView({ info, aside, titleLevel = 1 }: { info: EmergencyInfo; aside?: ReactNode; titleLevel?: 1 | 2 }) {
  const { t, locale } = useEmergencyI18n();
  const Title = titleLevel === 1 ? 'h1' : 'h2';
  const priority = priorityItems(info, t);
  const name = text(info.name);
  const yesNo = (flag: boolean) => (flag ? t('yes') : t('no'));
  const notProvided = t('notProvided');
  return (
    <div className="flex flex-col gap-5">
      <CriticalSummary
        facts={factsFromInfo(info, locale, t)}
        isPet={info.is_pet}
        heading={
          <div className="flex items-center justify-between gap-2">
            <Title className="min-w-0 text-base font-bold tracking-wide text-red-900 uppercase">{t('pageTitle')}</Title>
            {aside}
          </div>
        }
      />

      <Section id="priority" title={t('priorityTitle')} tone="priority">
        {priority.length > 0 ? (
          <ul className="flex flex-col gap-3">
            {priority.map((item) => (
              <li key={item.label} className="rounded-xl border-2 border-red-800 bg-white p-3">
                <p className="text-lg font-extrabold text-red-900 uppercase">{t(item.label)}</p>
                <p className="text-2xl font-bold break-words text-black">
                  <Lines value={item.details} />
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xl text-black">{t('priorityNone')}</p>
        )}
      </Section>

      <Section id="patient" title={t('patientTitle')}>
        <Facts
          rows={[
            [t('name'), name],
            [t('dateOfBirth'), birthDateWithAge(info.date_of_birth, t, locale)],
            ...(text(info.relationship) ? ([[t('relationship'), text(info.relationship)]] as [string, string | null][]) : []),
            // A pet: what it is and its microchip instead of a blood type and a language (decision 0037).
            ...((info.is_pet
              ? [
                  [t('species'), text(info.species)],
                  [t('breed'), text(info.breed)],
                  [t('microchip'), text(info.microchip_number)],
                ]
              : [[t('bloodType'), text(info.blood_type)]]) as [string, string | null][]),
            [t('height'), formatHeight(locale, info.height)],
            [t('weight'), formatWeight(locale, info.weight)],
            ...(info.is_pet ? [] : ([[t('primaryLanguage'), text(info.primary_language)]] as [string, string | null][])),
            [t('visionImpairment'), yesNo(info.has_vision_impairment)],
            [t('hearingImpairment'), yesNo(info.has_hearing_impairment)],
          ]}
        />
      </Section>

      <Section id="conditions" title={t('conditionsTitle')}>
        <Facts
          rows={[
            [t('chronicConditions'), condition(info.has_chronic_conditions, info.chronic_condition_details, t)],
            [t('previousSurgeries'), condition(info.has_previous_surgeries, info.surgery_details, t)],
            [t('mobilityIssues'), condition(info.has_mobility_issues, info.mobility_details, t)],
          ]}
        />
      </Section>

      <Section id="medications" title={t('medicationsTitle')}>
        {info.medications.length > 0 ? (
          <ul className="divide-y divide-slate-300">
            {info.medications.map((med, index) => {
              const details = [text(med.dosage), text(med.frequency)].filter(Boolean).join(' · ');
              return (
                <li key={`${med.medication_name ?? ''}-${index}`} className="py-2">
                  <p className="text-xl font-bold break-words text-black">{text(med.medication_name) ?? notProvided}</p>
                  <p className="text-lg break-words text-black">{details || `${t('dose')}: ${notProvided}`}</p>
                  {text(med.purpose) ? (
                    <p className="text-lg break-words text-slate-800">
                      {t('purpose')}: <Lines value={text(med.purpose) ?? ''} />
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : (
          <NotProvided />
        )}
      </Section>

      <Section id="contact" title={t('contactTitle')}>
        {info.is_pet ? <OwnerAndVet info={info} /> : null}
        <h3 className="mb-2 text-xl font-bold text-black">{t('emergencyContacts')}</h3>
        {info.emergency_contacts.length > 0 ? (
          <ul className="mb-5 flex flex-col gap-3">
            {info.emergency_contacts.map((contact, index) => (
              <li key={`${contact.name}-${index}`} className="rounded-xl border-2 border-slate-400 p-3">
                <p className="text-xl font-bold break-words text-black">{contact.name}</p>
                <p className="text-lg text-black">{text(contact.relationship) ?? `${t('relationship')}: ${notProvided}`}</p>
                {contact.is_primary || contact.has_medical_power ? (
                  <p className="my-2 flex flex-wrap gap-2">
                    {contact.is_primary ? <Badge>{t('primaryContactBadge')}</Badge> : null}
                    {contact.has_medical_power ? <Badge>{t('medicalPowerBadge')}</Badge> : null}
                  </p>
                ) : null}
                <div className="mt-2 flex flex-col items-start gap-2">
                  {text(contact.phone_number) ? (
                    <CallLink phone={text(contact.phone_number) ?? ''} name={contact.name} />
                  ) : (
                    <p className="text-lg text-slate-700 italic">
                      {t('phone')}: {notProvided}
                    </p>
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

        <h3 className="mb-2 text-xl font-bold text-black">{t('healthcareProviders')}</h3>
        {info.healthcare_providers.length > 0 ? (
          <ul className="flex flex-col gap-3">
            {info.healthcare_providers.map((provider, index) => (
              <li key={`${provider.provider_name}-${index}`} className="rounded-xl border-2 border-slate-400 p-3">
                <p className="text-xl font-bold break-words text-black">{provider.provider_name}</p>
                <p className="text-lg break-words text-black">
                  {[text(provider.specialty), text(provider.facility)].filter(Boolean).join(', ') || `${t('practice')}: ${notProvided}`}
                </p>
                {provider.is_primary ? (
                  <p className="my-2">
                    <Badge>{t('primaryCareBadge')}</Badge>
                  </p>
                ) : null}
                <div className="mt-2">
                  {text(provider.phone_number) ? (
                    <CallLink phone={text(provider.phone_number) ?? ''} name={provider.provider_name} />
                  ) : (
                    <p className="text-lg text-slate-700 italic">
                      {t('phone')}: {notProvided}
                    </p>
                  )}
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <NotProvided />
        )}
      </Section>

      {info.is_pet ? null : (
        <Section id="directives" title={t('directivesTitle')}>
          <Facts
            rows={[
              [t('organDonor'), yesNo(info.organ_donor)],
              [t('advanceDirectives'), yesNo(info.advance_directives)],
              [t('livingWill'), yesNo(info.living_will)],
              [t('religiousRestrictions'), text(info.religious_restrictions)],
            ]}
          />
        </Section>
      )}

      <p className="text-base text-slate-800">{t('disclaimer')}</p>
    </div>
  );
}
