import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect } from 'react';
import { toastContainerMounted, useToastContainerRequested } from '../../lib/toast';

const ToastContainer = lazy(async () => ({ default: (await import('react-toastify')).ToastContainer }));

/** The react-toastify container, loaded only once a toast is wanted (see lib/toast). */
export function ToastHost() {
  const { t } = useLingui();
  const requested = useToastContainerRequested();
  if (!requested) return null;
  // Right to left (Arabic): toasts sit at the bottom's start side, which is the left.
  const rtl = document.documentElement.dir === 'rtl';
  return (
    <Suspense fallback={null}>
      {/* SPEC §9: toast duration 3000 ms. At the bottom: at the top a toast covered the header's
          buttons ("Login successful." over Upload and Logout, issue 30). */}
      {/* Issue 35: react-toastify's own words are English ("close", "notification timer"): the close
          button is ours, labelled from the catalog, and the timer bar (which only counts down the
          3 seconds, and which screen readers would hear in English) is left out. */}
      <ToastContainer
        position={rtl ? 'bottom-left' : 'bottom-right'}
        rtl={rtl}
        autoClose={3000}
        newestOnTop
        theme="light"
        hideProgressBar
        closeButton={({ closeToast }) => (
          <button
            type="button"
            className="Toastify__close-button Toastify__close-button--light"
            aria-label={t`Close`}
            onClick={(event) => {
              event.stopPropagation();
              closeToast(event);
            }}
          >
            <svg aria-hidden="true" viewBox="0 0 14 16">
              <path
                fillRule="evenodd"
                d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z"
              />
            </svg>
          </button>
        )}
      />
      <MountedSignal />
    </Suspense>
  );
}

/** Commits with the container (one Suspense boundary), so toasts raised meanwhile wait for both. */
function MountedSignal() {
  useEffect(toastContainerMounted, []);
  return null;
}
