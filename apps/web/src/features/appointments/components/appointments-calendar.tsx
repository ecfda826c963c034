import { cloneElement, isValidElement, useCallback, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import { Calendar, Views, dateFnsLocalizer, type EventProps, type EventWrapperProps, type Formats, type Messages, type View } from 'react-big-calendar';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import './appointments-calendar.css';
import { TIME_FORMAT, type AppointmentEvent } from '../utils/calendar-events';

/*
 * The appointments calendar. It is loaded with React.lazy from the page, so react-big-calendar,
 * its styles and the date-fns locale come as a chunk of their own once the page shell is up
 * (DESIGN §8). The constants below are SPEC §9 "Calendar".
 */

const localizer = dateFnsLocalizer({ format, parse, startOfWeek, getDay, locales: { 'en-US': enUS } });

const timeRange = ({ start, end }: { start: Date; end: Date }) => `${format(start, TIME_FORMAT)} – ${format(end, TIME_FORMAT)}`;

// SPEC §9: 12-hour clock with AM/PM everywhere a time is shown, whatever the browser's locale.
const formats: Formats = {
  timeGutterFormat: TIME_FORMAT,
  eventTimeRangeFormat: timeRange,
  eventTimeRangeStartFormat: ({ start }) => `${format(start, TIME_FORMAT)} – `,
  eventTimeRangeEndFormat: ({ end }) => ` – ${format(end, TIME_FORMAT)}`,
  selectRangeFormat: timeRange,
  agendaTimeFormat: TIME_FORMAT,
  agendaTimeRangeFormat: timeRange,
};

const messages: Messages = {
  noEventsInRange: 'There are no events in this range.', // SPEC §8 empty states
  work_week: 'Work Week',
};

// SPEC §9 views: month, week, day and agenda — and the work week (Monday to Friday), the view
// that makes the spec's "work week excludes Saturday and Sunday" mean something.
const views: View[] = [Views.MONTH, Views.WEEK, Views.WORK_WEEK, Views.DAY, Views.AGENDA];

const HEIGHT_PX = 700;
const STEP_MINUTES = 30;
const TIMESLOTS_PER_STEP = 2;
const AGENDA_LENGTH_DAYS = 30;
const LONG_PRESS_MS = 250;

/**
 * Month-view events are plain divs in react-big-calendar (week and day events already are
 * focusable buttons): make them reachable and operable from the keyboard too.
 */
function EventWrapper({ children, ...props }: EventWrapperProps<AppointmentEvent> & { children?: ReactNode; type?: 'date' | 'time' }) {
  if (props.type !== 'date' || !isValidElement<{ tabIndex?: number; role?: string }>(children)) return <>{children}</>;
  return cloneElement(children, { tabIndex: 0, role: 'button' });
}

/** In the agenda the event is a table cell that reacts to clicks; a button inside makes it a control. */
function AgendaEvent({ title }: EventProps<AppointmentEvent>) {
  return (
    <button type="button" className="kc-agenda-event">
      {title}
    </button>
  );
}

const components = { eventWrapper: EventWrapper, agenda: { event: AgendaEvent } };

export interface AppointmentsCalendarProps {
  events: AppointmentEvent[];
  onSelectEvent: (event: AppointmentEvent) => void;
}

export function AppointmentsCalendar({ events, onSelectEvent }: AppointmentsCalendarProps) {
  const onKeyPressEvent = useCallback(
    (event: AppointmentEvent, e: SyntheticEvent<HTMLElement>) => {
      const { key } = e as KeyboardEvent<HTMLElement>;
      if (key !== 'Enter' && key !== ' ') return;
      e.preventDefault();
      onSelectEvent(event);
    },
    [onSelectEvent],
  );

  return (
    <div className="kc-calendar rounded-xl border border-slate-200 bg-white p-2 shadow-sm sm:p-4">
      <Calendar<AppointmentEvent>
        localizer={localizer}
        culture="en-US"
        events={events}
        startAccessor="start"
        endAccessor="end"
        titleAccessor="title"
        style={{ height: HEIGHT_PX }}
        views={views}
        defaultView={Views.MONTH}
        step={STEP_MINUTES}
        timeslots={TIMESLOTS_PER_STEP}
        length={AGENDA_LENGTH_DAYS}
        longPressThreshold={LONG_PRESS_MS}
        // The month view starts at 5 event rows per cell and shows a '+N more' link beyond that;
        // the current-time line in week and day views moves every 60 s (react-big-calendar's own
        // timer, fed by getNow).
        showAllEvents={false}
        popup={false}
        getNow={() => new Date()}
        formats={formats}
        messages={messages}
        components={components}
        onSelectEvent={onSelectEvent}
        onKeyPressEvent={onKeyPressEvent}
      />
    </div>
  );
}
