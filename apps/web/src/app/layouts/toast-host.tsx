import { lazy, Suspense } from 'react';
import { useToastContainerRequested } from '../../lib/toast';

const ToastContainer = lazy(async () => ({ default: (await import('react-toastify')).ToastContainer }));

/** The react-toastify container, loaded only once a toast is wanted (see lib/toast). */
export function ToastHost() {
  const requested = useToastContainerRequested();
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      {/* SPEC §9: toast duration 3000 ms. */}
      <ToastContainer position="top-right" autoClose={3000} newestOnTop theme="light" />
    </Suspense>
  );
}
