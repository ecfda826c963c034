import { Outlet } from 'react-router';
import { MAIN_CONTENT_ID } from './skip-link';

/**
 * The emergency view is opened from a QR code by a first responder: no header, no footer,
 * nothing that leads into the signed-in app (SPEC §2 Layout).
 */
export function EmergencyLayout() {
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto min-h-screen w-full max-w-3xl px-4 py-8 focus:outline-none">
      <Outlet />
    </main>
  );
}
