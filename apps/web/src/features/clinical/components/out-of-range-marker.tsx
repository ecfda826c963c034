/**
 * An out-of-range result's marker: a warning icon AND the words (WCAG 1.4.1: never colour alone),
 * e.g. "Out of range (High)".
 */
export function OutOfRangeMarker({ text, className = '' }: { text: string; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full border border-red-300 bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800 ${className}`}
    >
      <WarningIcon />
      {text}
    </span>
  );
}

/** The triangle the chart's out-of-range points are drawn as, so the list and the chart speak alike. */
export function WarningIcon({ className = 'size-3.5' }: { className?: string }) {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false" className={`shrink-0 ${className}`}>
      <path d="M10 2 19 18H1L10 2Z" fill="currentColor" />
      <path d="M9 8h2v5H9zM9 14h2v2H9z" fill="#fff" />
    </svg>
  );
}
