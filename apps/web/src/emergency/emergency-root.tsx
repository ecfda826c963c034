import { EmergencyMain } from '../features/emergency/components/emergency-main';
import { EmergencyScreen, type EmergencyScreenProps } from '../features/emergency/components/emergency-screen';

/** The standalone emergency page: the emergency frame around the one screen. */
export function EmergencyRoot(props: Omit<EmergencyScreenProps, 'standalone'>) {
  return (
    <EmergencyMain>
      <EmergencyScreen {...props} standalone />
    </EmergencyMain>
  );
}
