import type { ReactNode } from 'react';

/**
 * An error said at once to screen readers (role=alert) in the app's error colours (SPEC §5: red
 * for a message that is not a success). Render it only while there is something to say.
 */
export function AlertMessage({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={`rounded-lg bg-red-50 px-3 py-2 font-medium text-red-700 ${className}`.trimEnd()}>
      {children}
    </p>
  );
}
