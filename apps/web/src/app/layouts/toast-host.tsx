import { lazy, Suspense, useEffect } from 'react';
import { toastContainerMounted, useToastContainerRequested } from '../../lib/toast';

const ToastContainer = lazy(async () => ({ default: (await import('react-toastify')).ToastContainer }));

/** The react-toastify container, loaded only once a toast is wanted (see lib/toast). */
export function ToastHost() {
  const requested = useToastContainerRequested();
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      {/* SPEC §9: toast duration 3000 ms. At the bottom: at the top a toast covered the header's
          buttons ("Login successful." over Upload and Logout, issue 30). */}
      <ToastContainer position="bottom-right" autoClose={3000} newestOnTop theme="light" />
      <MountedSignal />
    </Suspense>
  );
}

/** Commits with the container (one Suspense boundary), so toasts raised meanwhile wait for both. */
function MountedSignal() {
  useEffect(toastContainerMounted, []);
  return null;
}
