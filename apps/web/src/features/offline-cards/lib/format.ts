/** "May 4, 2026 at 9:41 AM" in the device's time zone, or null for a missing or broken time. */
export function formatSavedAt(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(date);
}

/** "3 emergency cards" / "1 emergency card". */
export function cardCount(n: number): string {
  return `${n} emergency card${n === 1 ? '' : 's'}`;
}
