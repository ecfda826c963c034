/**
 * GET /api/user/appointments.ics?tz=… — the appointments as an RFC 5545 calendar file
 * ("Calendar export" on the Appointments page). The browser downloads it through a plain link, so there is no
 * fetcher: appointment times are wall-clock times, and `tz` tells the server which zone they
 * are in so it can write them in UTC.
 */
export function appointmentsIcsUrl(timeZone: string = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return `/api/user/appointments.ics?${new URLSearchParams({ tz: timeZone }).toString()}`;
}
