import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  cloneElement,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
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
import { format, getDay, parse, startOfWeek, type Locale } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { directionOf, intlLocale, isAppLanguage } from '../../../i18n/languages';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import './appointments-calendar.css';
import { TIME_FORMAT, formatDatePart, formatTime, formatTimeRange, isEnglish, type AppointmentEvent } from '../utils/calendar-events';

/*
 * The appointments calendar. It is loaded with React.lazy from the page, so react-big-calendar,
 * its styles and the date-fns locale come as a chunk of their own once the page shell is up
 * (DESIGN §8). The constants below are SPEC §9 "Calendar".
 */

/*
 * Issue 35: the calendar speaks the reader's language. English keeps SPEC §9's formats below;
 * another language gets its date-fns locale (the first day of the week; loaded on demand, only
 * the reader's) and Intl formats in its own order, names and clock (intlFormats).
 */
const DATE_FNS_LOCALES: Record<string, () => Promise<Locale>> = {
  es: async () => (await import('date-fns/locale/es')).es,
  fr: async () => (await import('date-fns/locale/fr')).fr,
  de: async () => (await import('date-fns/locale/de')).de,
  'pt-BR': async () => (await import('date-fns/locale/pt-BR')).ptBR,
  it: async () => (await import('date-fns/locale/it')).it,
  nl: async () => (await import('date-fns/locale/nl')).nl,
  pl: async () => (await import('date-fns/locale/pl')).pl,
  'zh-Hans': async () => (await import('date-fns/locale/zh-CN')).zhCN,
  ja: async () => (await import('date-fns/locale/ja')).ja,
  hi: async () => (await import('date-fns/locale/hi')).hi,
  ar: async () => (await import('date-fns/locale/ar')).ar,
  uk: async () => (await import('date-fns/locale/uk')).uk,
};

const loadedLocales = new Map<string, Locale>([['en', enUS]]);

/** The date-fns locale of `culture`: at once when it is English or already loaded, else null until it has loaded. */
function useDateFnsLocale(culture: string): Locale | null {
  const [, setLoads] = useState(0);
  const load = DATE_FNS_LOCALES[culture];
  const known = loadedLocales.get(culture) ?? (load ? null : enUS);
  useEffect(() => {
    if (known || !load) return;
    let current = true;
    const done = (locale: Locale) => {
      loadedLocales.set(culture, locale);
      if (current) setLoads((n) => n + 1);
    };
    load().then(done, (error: unknown) => {
      // The chunk could not come (offline): the English week layout, the reader's words still.
      console.error('Error loading the calendar locale:', error);
      done(enUS);
    });
    return () => {
      current = false;
    };
  }, [culture, known, load]);
  return known;
}

const timeRange = ({ start, end }: { start: Date; end: Date }) => `${format(start, TIME_FORMAT)} – ${format(end, TIME_FORMAT)}`;

// SPEC §9: 12-hour clock with AM/PM everywhere a time is shown, whatever the browser's locale.
const englishFormats: Formats = {
  timeGutterFormat: 'h a', // "9 AM": narrow enough for a phone's gutter
  agendaHeaderFormat: ({ start, end }) => `${format(start, 'MMM d, yyyy')} – ${format(end, 'MMM d, yyyy')}`,
  eventTimeRangeFormat: timeRange,
  eventTimeRangeStartFormat: ({ start }) => `${format(start, TIME_FORMAT)} – `,
  eventTimeRangeEndFormat: ({ end }) => ` – ${format(end, TIME_FORMAT)}`,
  selectRangeFormat: timeRange,
  agendaTimeFormat: TIME_FORMAT,
  agendaTimeRangeFormat: timeRange,
};

/** The formats of a language other than English, through Intl in `locale`. */
function intlFormats(locale: string): Formats {
  const part = (options: Intl.DateTimeFormatOptions) => (date: Date) => formatDatePart(date, options, locale);
  const range =
    (options: Intl.DateTimeFormatOptions) =>
    ({ start, end }: { start: Date; end: Date }) =>
      new Intl.DateTimeFormat(locale, options).formatRange(start, end);
  const times = ({ start, end }: { start: Date; end: Date }) => formatTimeRange(start, end, locale);
  return {
    dateFormat: part({ day: 'numeric' }),
    dayFormat: part({ weekday: 'short', day: 'numeric' }),
    weekdayFormat: part({ weekday: 'short' }),
    monthHeaderFormat: part({ month: 'long', year: 'numeric' }),
    dayHeaderFormat: part({ weekday: 'long', month: 'long', day: 'numeric' }),
    dayRangeHeaderFormat: range({ month: 'long', day: 'numeric' }),
    agendaHeaderFormat: range({ year: 'numeric', month: 'short', day: 'numeric' }),
    agendaDateFormat: part({ weekday: 'short', month: 'short', day: 'numeric' }),
    timeGutterFormat: part({ hour: 'numeric' }),
    eventTimeRangeFormat: times,
    eventTimeRangeStartFormat: ({ start }) => `${formatTime(start, locale)} – `,
    eventTimeRangeEndFormat: ({ end }) => ` – ${formatTime(end, locale)}`,
    selectRangeFormat: times,
    agendaTimeFormat: (date: Date) => formatTime(date, locale),
    agendaTimeRangeFormat: times,
  };
}

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
/** `drawn`: the calendar is on the page (not its loading placeholder). */
function useCalendarDomRepairs(root: RefObject<HTMLElement | null>, hoursLabel: string, monthLabel: string, drawn: boolean) {
  useLayoutEffect(() => {
    const container = root.current;
    if (!container) return;
    const repair = () => {
      for (const element of container.querySelectorAll('.rbc-allday-cell[role], .rbc-allday-cell .rbc-row-content[role]')) {
        element.removeAttribute('role');
      }
      for (const element of container.querySelectorAll('.rbc-time-content')) {
        if (element.getAttribute('aria-label') === hoursLabel) continue;
        element.setAttribute('tabindex', '0');
        element.setAttribute('role', 'group');
        element.setAttribute('aria-label', hoursLabel);
      }
      // The library names the month grid "Month View" in English whatever the language (issue 35).
      for (const element of container.querySelectorAll('.rbc-month-view')) {
        if (element.getAttribute('aria-label') !== monthLabel) element.setAttribute('aria-label', monthLabel);
      }
    };
    repair();
    const observer = new MutationObserver(repair);
    observer.observe(container, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [root, hoursLabel, monthLabel, drawn]);
}

/** A week or day column title: weekday over day number, so seven of them fit on a phone. */
function TimeGridHeader({ date }: HeaderProps) {
  return (
    <span className="kc-day-head">
      <span>{formatDatePart(date, { weekday: 'short' })}</span> <span>{formatDatePart(date, { day: 'numeric' })}</span>
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
        {plural(count, { one: '+# more', other: '+# more' })}
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
  const { t, i18n } = useLingui();
  const language = isAppLanguage(i18n.locale) ? i18n.locale : 'en';
  const locale = intlLocale(language);
  const culture = isEnglish(locale) ? 'en' : locale;
  const dateFnsLocale = useDateFnsLocale(culture);
  const rootRef = useRef<HTMLDivElement>(null);
  useCalendarDomRepairs(rootRef, t`Hours of the day`, t`Month View`, dateFnsLocale !== null);
  const localizer = useMemo(
    () => dateFnsLocalizer({ format, parse, startOfWeek, getDay, locales: { [culture]: dateFnsLocale ?? enUS } }),
    [culture, dateFnsLocale],
  );
  const formats = useMemo(() => (culture === 'en' ? englishFormats : intlFormats(locale)), [culture, locale]);
  // The library's own English words are the SPEC's; each is said here so every language has them.
  const messages: Messages<AppointmentEvent> = {
    date: t({ message: 'Date', context: 'calendar agenda column' }),
    time: t({ message: 'Time', context: 'calendar agenda column' }),
    event: t({ message: 'Event', context: 'calendar agenda column' }),
    allDay: t({ message: 'All Day', context: 'calendar' }),
    week: t({ message: 'Week', context: 'calendar view' }),
    work_week: t({ message: 'Work Week', context: 'calendar view' }),
    day: t({ message: 'Day', context: 'calendar view' }),
    month: t({ message: 'Month', context: 'calendar view' }),
    previous: t({ message: 'Back', context: 'calendar: the previous month, week or day' }),
    next: t({ message: 'Next', context: 'calendar: the next month, week or day' }),
    yesterday: t({ message: 'Yesterday', context: 'calendar' }),
    tomorrow: t({ message: 'Tomorrow', context: 'calendar' }),
    today: t({ message: 'Today', context: 'calendar' }),
    agenda: t({ message: 'Agenda', context: 'calendar view' }),
    // SPEC §8 empty states
    noEventsInRange: t`There are no events in this range.`,
  };
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

  // Only until the reader's date-fns locale has come: its first day of the week shapes the grid.
  if (!dateFnsLocale) {
    return (
      <div className="flex h-[700px] items-center justify-center rounded-xl border border-slate-200 bg-white text-slate-700">
        <Trans>Loading calendar...</Trans>
      </div>
    );
  }

  return (
    <DrillDownContext value={drillDown}>
      <div ref={rootRef} className="kc-calendar rounded-xl border border-slate-200 bg-white p-2 shadow-sm sm:p-4">
        <Calendar<AppointmentEvent>
          localizer={localizer}
          culture={culture}
          rtl={directionOf(language) === 'rtl'}
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
