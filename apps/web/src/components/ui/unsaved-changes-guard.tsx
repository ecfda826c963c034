import { useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { ConfirmDialog } from './confirm-dialog';

export interface UnsavedChangesGuard {
  /** The confirmation dialog; render it once, anywhere in the editor. */
  dialog: ReactNode;
  /** Runs `leave` at once when nothing is unsaved, otherwise after the person confirms (closing a modal editor). */
  confirmLeave: (leave: () => void) => void;
  /** Lets the next navigation through unasked: call it once the changes are saved. */
  release: () => void;
}

/**
 * Keeps an editor with unsaved changes from being left by accident (DESIGN §8: every control
 * reachable and announced). Leaving through the app — a link, Back, a redirect — is held by React
 * Router's blocker and asks in an accessible dialog (focus starts on "Stay on this page", so Enter
 * never throws work away); closing or reloading the tab gets the browser's own `beforeunload`
 * question, the only one a page may ask there.
 */
export function useUnsavedChangesGuard(dirty: boolean): UnsavedChangesGuard {
  const { t } = useLingui();
  const dirtyRef = useRef(dirty);
  const releasedRef = useRef(false);
  useEffect(() => {
    dirtyRef.current = dirty;
    // A new change after a save is worth asking about again.
    if (dirty) releasedRef.current = false;
  }, [dirty]);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current &&
      !releasedRef.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (releasedRef.current) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null);
  const confirmLeave = useCallback((leave: () => void) => {
    if (dirtyRef.current && !releasedRef.current) setPendingLeave(() => leave);
    else leave();
  }, []);
  const release = useCallback(() => {
    releasedRef.current = true;
  }, []);

  const blocked = blocker.state === 'blocked';
  const dialog = (
    <ConfirmDialog
      open={blocked || pendingLeave !== null}
      title={t`Leave without saving?`}
      message={t`You have changes that are not saved yet. If you leave now, they will be lost.`}
      confirmLabel={t`Leave without saving`}
      cancelLabel={t`Stay on this page`}
      onConfirm={() => {
        if (blocked) blocker.proceed();
        const leave = pendingLeave;
        setPendingLeave(null);
        if (leave) {
          // The person chose to leave: the navigation that may follow (a page's Cancel) goes through.
          releasedRef.current = true;
          leave();
        }
      }}
      onCancel={() => {
        if (blocked) blocker.reset();
        setPendingLeave(null);
      }}
    />
  );
  return { dialog, confirmLeave, release };
}
