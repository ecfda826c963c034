import { Outlet } from 'react-router';
import { EmergencyMain } from '../../features/emergency/components/emergency-main';

/**
 * The emergency view is opened from a QR code by a first responder: no header, no footer,
 * nothing that leads into the signed-in app (SPEC §2 Layout).
 */
export function EmergencyLayout() {
  return (
    <EmergencyMain>
      <Outlet />
    </EmergencyMain>
  );
}
