import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { Appointment } from '@kinchart/shared/appointments';
import type { Person } from '@kinchart/shared/people';
import { Button, buttonClassName } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { PersonSelect } from '../../../components/ui/person-select';
import { personColor } from '../../../lib/person-colors';
import { canWrite, personNameOf, personOptionLabel } from '../../../lib/person-choice';
import { usePeople } from '../../../lib/queries/people';
import { appointmentsIcsUrl } from '../api/appointments-ics';
import { useAppointments } from '../api/get-appointments';
import { AppointmentFormModal } from '../components/appointment-form-modal';
import { AppointmentDetailsModal } from '../components/appointment-details-modal';
import { toCalendarEvent, type AppointmentEvent } from '../utils/calendar-events';

// DESIGN §8: the calendar is its own chunk; the page shell (title, buttons) renders first.
const AppointmentsCalendar = lazy(async () => ({
  default: (await import('../components/appointments-calendar')).AppointmentsCalendar,
}));

const NO_APPOINTMENTS: Appointment[] = [];
const NO_PEOPLE: Person[] = [];

/** Which colour stands for whom (DESIGN §11): a swatch and the person's name for each. */
function CalendarLegend({ people }: { people: readonly Person[] }) {
  const { t } = useLingui();
  return (
    <ul aria-label={t`Calendar colours`} className="mb-3 flex flex-wrap gap-x-4 gap-y-2 text-sm text-slate-800">
      {people.map((person) => (
        <li key={person.id} className="inline-flex items-center gap-2">
          <span
            aria-hidden="true"
            className="size-3.5 shrink-0 rounded-full"
            style={{ backgroundColor: personColor(people, person.id).background }}
          />
          {personOptionLabel(person)}
        </li>
      ))}
    </ul>
  );
}

/**
 * /appointments (SPEC §2): the calendar, the add and edit modals and the details modal; and a
 * person filter (DESIGN §11), Everyone by default, kept in the address (?person={id}). With more
 * than one person each event carries its person's name and colour, with a legend.
 */
export function AppointmentsPage() {
  const { t } = useLingui();
  const people = usePeople();
  const [searchParams, setSearchParams] = useSearchParams();
  const personId = searchParams.get('person') || '';
  const setPersonId = (id: string) => setSearchParams(id ? { person: id } : {}, { replace: true });
  const appointments = useAppointments(personId || undefined);
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<Appointment | null>(null);
  const [editing, setEditing] = useState<Appointment | null>(null);

  const peopleList = people.data ?? NO_PEOPLE;
  const manyPeople = peopleList.length > 1;
  // A failed load is only logged (SPEC §8); the calendar then simply has nothing in it.
  const list = appointments.data ?? NO_APPOINTMENTS;
  const events = useMemo(
    () =>
      list.map((appointment) => {
        if (!manyPeople) return toCalendarEvent(appointment);
        const color = personColor(peopleList, appointment.person_id);
        const name = personNameOf(peopleList, appointment.person_id, appointment.person_name) ?? t`Unknown person`;
        return toCalendarEvent(appointment, { name, ...color });
      }),
    [list, manyPeople, peopleList, t],
  );
  const onSelectEvent = useCallback((event: AppointmentEvent) => setSelected(event.appointment), []);

  // Issue 33: a search result opens `#appointment-<id>`: the appointment's details open, once per
  // visit, wherever it falls in the calendar.
  const { hash, key: locationKey } = useLocation();
  const openedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!hash.startsWith('#appointment-') || !appointments.data || openedFor.current === locationKey) return;
    const target = appointments.data.find((a) => `#appointment-${a.id}` === hash);
    if (!target) return;
    openedFor.current = locationKey;
    setSelected(target);
  }, [hash, locationKey, appointments.data]);

  const personOf = (appointment: Appointment) =>
    appointment.person_id ? peopleList.find((p) => p.id === appointment.person_id) : undefined;
  const selectedPerson = selected ? personOf(selected) : undefined;

  return (
    <>
      <PageHeader
        title={t`Appointments`}
        subtitle={t`Manage your healthcare appointments`}
        actions={
          <>
            <a href={appointmentsIcsUrl()} download className={buttonClassName('secondary')}>
              <Trans>Download calendar (.ics)</Trans>
            </a>
            <Button onClick={() => setAdding(true)}>
              <Trans>Add New Appointment</Trans>
            </Button>
          </>
        }
      />
      {manyPeople ? (
        <div className="mb-4 flex flex-col gap-3">
          <PersonSelect
            label={t`Person`}
            people={peopleList}
            value={personId}
            onChange={setPersonId}
            everyoneLabel={t`Everyone`}
            containerClassName="sm:max-w-xs"
          />
          {personId ? null : <CalendarLegend people={peopleList} />}
        </div>
      ) : null}
      <section aria-label={t`Appointments calendar`} aria-busy={appointments.isPending}>
        <Suspense
          fallback={
            <div className="flex h-[700px] items-center justify-center rounded-xl border border-slate-200 bg-white text-slate-700">
              <Trans>Loading calendar...</Trans>
            </div>
          }
        >
          <AppointmentsCalendar events={events} onSelectEvent={onSelectEvent} />
        </Suspense>
      </section>
      <AppointmentFormModal open={adding} onClose={() => setAdding(false)} personId={personId || null} />
      <AppointmentFormModal open={editing !== null} appointment={editing} onClose={() => setEditing(null)} />
      <AppointmentDetailsModal
        appointment={selected}
        personName={manyPeople && selected ? personNameOf(peopleList, selected.person_id, selected.person_name) : null}
        // A viewer of a shared person reads their appointments but does not change them.
        canEdit={selectedPerson ? canWrite(selectedPerson) : true}
        onClose={() => setSelected(null)}
        onEdit={(appointment) => {
          // The form takes the details' place; it closes back to the calendar.
          setSelected(null);
          setEditing(appointment);
        }}
      />
    </>
  );
}
