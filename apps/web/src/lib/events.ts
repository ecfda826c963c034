import { useEffect, useRef } from 'react';

/**
 * Page-wide refresh events (SPEC §4 "Refresh events"). TanStack Query invalidation does the
 * real refreshing; these events are still raised for the parts of the page that listen.
 */
export type AppEventName = 'familyMemberUpdated' | 'filesUpdated';

export function dispatchAppEvent(name: AppEventName, detail?: unknown): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Subscribes to an app event and returns the function that unsubscribes. */
export function listenAppEvent(name: AppEventName, handler: (event: CustomEvent) => void): () => void {
  const listener = (event: Event) => handler(event as CustomEvent);
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}

/** Calls the latest `handler` whenever the event fires while the component is mounted. */
export function useAppEvent(name: AppEventName, handler: (event: CustomEvent) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => listenAppEvent(name, (event) => latest.current(event)), [name]);
}
