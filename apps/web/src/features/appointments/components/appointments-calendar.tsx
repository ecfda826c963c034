import {
  cloneElement,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import {
  Calendar,
  Views,
  dateFnsLocalizer,
  type Components,
  type EventProps,
  type EventWrapperProps,
  type Formats,
  type HeaderProps,
  type Messages,
  type ShowMoreProps,
  type View,
} from 'react-big-calendar';
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
  timeGutterFormat: 'h a', // "9 AM": narrow enough for a phone's gutter
  agendaHeaderFormat: ({ start, end }) => `${format(start, 'MMM d, yyyy')} – ${format(end, 'MMM d, yyyy')}`,
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
/** Week and day views open scrolled to the morning rather than to midnight. */
const SCROLL_TO = new Date(1970, 0, 1, 7, 0, 0);

/*
 * Accessibility repairs (axe, WCAG 2.1 AA). react-big-calendar marks its day grids up as ARIA
 * tables, but puts events and the '+N more' link straight into rows that may only own cells,
 * gives the week and day column titles the columnheader role outside any row, and renders the
 * week view's all-day band as a rowgroup > row with no table around it and no cell in it. Its
 * month events are plain divs no keyboard can reach, and so is the scrolling hours area of an
 * empty week. So: each month event and '+N more' link sits in a cell of its own; column titles
 * are plain text; the all-day band loses its table roles and the hours area becomes focusable
 * (useCalendarDomRepairs); month events become focusable buttons (Enter or Space opens them, see
 * onKeyPressEvent — week and day events already are buttons); and in the agenda the event title
 * is a button inside the clickable cell.
 */

/** True inside the week view's all-day band, which is not a table row (see above). */
const AllDayBandContext = createContext(false);

function EventWrapper({ children, ...props }: EventWrapperProps<AppointmentEvent> & { children?: ReactNode; type?: 'date' | 'time' }) {
  const inAllDayBand = useContext(AllDayBandContext);
  if (props.type !== 'date' || !isValidElement<{ tabIndex?: number; role?: string }>(children)) return <>{children}</>;
  const event = cloneElement(children, { tabIndex: 0, role: 'button' });
  return inAllDayBand ? event : <div role="cell">{event}</div>;
}

function WeekWrapper({ children, isAllDay }: { children?: ReactNode; isAllDay?: boolean }) {
  return <AllDayBandContext value={Boolean(isAllDay)}>{children}</AllDayBandContext>;
}

/**
 * Two repairs the library offers no props for, so they are made on the DOM once it is drawn and
 * again whenever a view redraws (React does not put back an attribute it never changes):
 * - the all-day band's table roles are hard-coded (DateContentRow): take them off;
 * - the scrolling hours of the week and day views hold nothing focusable on an empty day, so a
 *   keyboard could not scroll them: make the scroller itself focusable, with a name.
 */
function useCalendarDomRepairs(root: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const container = root.current;
    if (!container) return;
    const repair = () => {
      for (const element of container.querySelectorAll('.rbc-allday-cell[role], .rbc-allday-cell .rbc-row-content[role]')) {
        element.removeAttribute('role');
      }
      for (const element of container.querySelectorAll('.rbc-time-content:not([tabindex])')) {
        element.setAttribute('tabindex', '0');
        element.setAttribute('role', 'group');
        element.setAttribute('aria-label', 'Hours of the day');
      }
    };
    repair();
    const observer = new MutationObserver(repair);
    observer.observe(container, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [root]);
}

/** A week or day column title: weekday over day number, so seven of them fit on a phone. */
function TimeGridHeader({ date }: HeaderProps) {
  return (
    <span className="kc-day-head">
      <span>{format(date, 'EEE')}</span> <span>{format(date, 'd')}</span>
    </span>
  );
}

/** Opens the day view on a date: what the library's own '+N more' link does. */
const DrillDownContext = createContext<(date: Date) => void>(() => undefined);

function ShowMore({ count, slotDate }: ShowMoreProps<AppointmentEvent>) {
  const drillDown = useContext(DrillDownContext);
  return (
    <div role="cell">
      <button type="button" className="rbc-button-link rbc-show-more" onClick={() => drillDown(slotDate)}>
        {`+${count} more`}
      </button>
    </div>
  );
}

/**
 * An event in the month, week and day views: whose it is, then the spec's title (SPEC §3), so the
 * person is written as well as coloured (DESIGN §11; colour is never the only cue).
 */
function CalendarEvent({ event, title }: EventProps<AppointmentEvent>) {
  if (!event.person) return <>{title}</>;
  return (
    <>
      <span className="kc-event-person">{event.person.name}:</span> {title}
    </>
  );
}

function AgendaEvent({ event, title }: EventProps<AppointmentEvent>) {
  // No onClick: the click reaches the agenda cell, which selects the event.
  return (
    <button type="button" className="kc-agenda-event">
      {event.person ? (
        <>
          <span aria-hidden="true" className="kc-person-swatch" style={{ backgroundColor: event.person.background }} />
          <span className="kc-event-person">{event.person.name}:</span>{' '}
        </>
      ) : null}
      {title}
    </button>
  );
}

/** Each person's events in their colour (see lib/person-colors); the library's own colour otherwise. */
function eventPropGetter(event: AppointmentEvent) {
  if (!event.person) return {};
  return { style: { backgroundColor: event.person.background, borderColor: event.person.border } };
}

/** `weekWrapper` is a component slot of the library that its type definitions leave out. */
type CalendarComponents = Components<AppointmentEvent> & { weekWrapper: typeof WeekWrapper };

const components: CalendarComponents = {
  eventWrapper: EventWrapper,
  weekWrapper: WeekWrapper,
  showMore: ShowMore,
  event: CalendarEvent,
  week: { header: TimeGridHeader },
  work_week: { header: TimeGridHeader },
  day: { header: TimeGridHeader },
  agenda: { event: AgendaEvent },
};

export interface AppointmentsCalendarProps {
  events: AppointmentEvent[];
  onSelectEvent: (event: AppointmentEvent) => void;
}

export function AppointmentsCalendar({ events, onSelectEvent }: AppointmentsCalendarProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  useCalendarDomRepairs(rootRef);
  const [view, setView] = useState<View>(Views.MONTH);
  const [date, setDate] = useState(() => new Date());
  const drillDown = useCallback((day: Date) => {
    setDate(day);
    setView(Views.DAY);
  }, []);
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
    <DrillDownContext value={drillDown}>
      <div ref={rootRef} className="kc-calendar rounded-xl border border-slate-200 bg-white p-2 shadow-sm sm:p-4">
        <Calendar<AppointmentEvent>
          localizer={localizer}
          culture="en-US"
          events={events}
          startAccessor="start"
          endAccessor="end"
          titleAccessor="title"
          style={{ height: HEIGHT_PX }}
          views={views}
          view={view}
          onView={setView}
          date={date}
          onNavigate={setDate}
          step={STEP_MINUTES}
          timeslots={TIMESLOTS_PER_STEP}
          length={AGENDA_LENGTH_DAYS}
          longPressThreshold={LONG_PRESS_MS}
          scrollToTime={SCROLL_TO}
          // The month view starts at 5 event rows per cell and shows a '+N more' link beyond that;
          // the current-time line in week and day views moves every 60 s (react-big-calendar's own
          // timer, fed by getNow).
          showAllEvents={false}
          popup={false}
          getNow={() => new Date()}
          formats={formats}
          messages={messages}
          components={components}
          eventPropGetter={eventPropGetter}
          onSelectEvent={onSelectEvent}
          onKeyPressEvent={onKeyPressEvent}
        />
      </div>
    </DrillDownContext>
  );
}
