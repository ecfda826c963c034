/**
 * GET /api/user/appointments.ics?tz=… — the appointments as an RFC 5545 calendar file
 * ("Calendar export" on the Appointments page). The browser downloads it through a plain link, so there is no
 * fetcher: appointment times are wall-clock times of their person's zone (issue 32), and `tz`
 * tells the server the zone to read them in for a person who has none (nor their account).
 */
export function appointmentsIcsUrl(timeZone: string = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return `/api/user/appointments.ics?${new URLSearchParams({ tz: timeZone }).toString()}`;
}
