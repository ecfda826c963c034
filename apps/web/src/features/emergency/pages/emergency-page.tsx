import { useParams } from 'react-router';
import { EmergencyScreen } from '../components/emergency-screen';

/**
 * /emergency/:shareId and /family/emergency/:shareId within the app (the router's page). Opened
 * from a QR code, the server answers these paths with the emergency entry point instead
 * (src/emergency): the same screen, server-rendered, without the app's bundle.
 */
export function EmergencyPage() {
  const { shareId = '' } = useParams();
  return <EmergencyScreen shareId={shareId} />;
}
