import type { ReactNode } from 'react';
import { MAIN_CONTENT_ID } from '../../../components/ui/skip-link';

/**
 * The emergency page's frame, in the app's layout and on the standalone entry point alike: no
 * header, no footer, nothing that leads into the signed-in app (SPEC §2 Layout). Narrow margins on
 * a phone, so the critical facts keep the first screen (DESIGN §7).
 */
export function EmergencyMain({ children }: { children: ReactNode }) {
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto min-h-screen w-full max-w-3xl px-4 py-4 focus:outline-none sm:py-8">
      {children}
    </main>
  );
}
