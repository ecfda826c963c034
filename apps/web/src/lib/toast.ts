import { useSyncExternalStore } from 'react';

/*
 * Toasts without putting react-toastify in the first download: the landing page has a 120 KB
 * JavaScript budget (DESIGN §9) and shows no toasts. The library loads on the first toast (or
 * when someone is signed in); react-toastify queues toasts raised before its container mounts.
 */

type ToastKind = 'success' | 'error' | 'info' | 'warning';

let requested = false;
const listeners = new Set<() => void>();

function requestContainer(): void {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once the toast container should be on the page. */
export function useToastContainerRequested(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => requested,
    () => false,
  );
}

/** Mounts the toast container ahead of the first toast (for example once someone signs in). */
export function preloadToasts(): void {
  requestContainer();
}

// react-toastify 11 drops a toast raised before its container has mounted (a toast on a page's
// very first render, e.g. back from single sign-on, docs/decisions/0029): toasts wait for it.
let containerMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  containerMounted = resolve;
});

/** Called by the toast host once the container is on the page. */
export function toastContainerMounted(): void {
  containerMounted();
}

function show(kind: ToastKind, message: string): void {
  requestContainer();
  void Promise.all([import('react-toastify'), mounted]).then(([{ toast }]) => {
    toast[kind](message);
  });
}

export const notify = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
  warning: (message: string) => show('warning', message),
};
