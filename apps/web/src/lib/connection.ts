import { useSyncExternalStore } from 'react';

/*
 * Whether this page can reach the server (issue 30, item 22). The browser's own word
 * (navigator.onLine, the online and offline events) is one half; the other is what the one API
 * client sees: a request that got no answer at all marks the connection lost even while the
 * browser still believes it is online (a captive portal, a dead Wi-Fi), and any answer marks it
 * back. While it is lost only by a failed request, a light probe asks again now and then, so
 * whatever waits for the connection (a paused save) does not wait for ever.
 */

const PROBE_PATH = '/api/config';
const PROBE_FIRST_MS = 5_000;
const PROBE_MAX_MS = 30_000;

const listeners = new Set<() => void>();
let failedRequest = false;
let probeTimer: ReturnType<typeof setTimeout> | undefined;
let probeDelay = PROBE_FIRST_MS;

function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** True while the page believes it can reach the server. */
export function isOnline(): boolean {
  return browserOnline() && !failedRequest;
}

function emit(): void {
  for (const listener of listeners) listener();
}

function stopProbe(): void {
  if (probeTimer !== undefined) clearTimeout(probeTimer);
  probeTimer = undefined;
  probeDelay = PROBE_FIRST_MS;
}

function scheduleProbe(): void {
  if (probeTimer !== undefined || typeof window === 'undefined') return;
  probeTimer = setTimeout(() => {
    probeTimer = undefined;
    // The browser says offline: its online event will tell us, no need to ask.
    if (!failedRequest || !browserOnline()) return;
    fetch(PROBE_PATH, { credentials: 'include', headers: { Accept: 'application/json' } }).then(
      () => markReachable(),
      () => {
        probeDelay = Math.min(probeDelay * 2, PROBE_MAX_MS);
        scheduleProbe();
      },
    );
  }, probeDelay);
}

/** A request got no answer at all: the server is out of reach until something answers. */
export function markUnreachable(): void {
  if (failedRequest) return;
  const before = isOnline();
  failedRequest = true;
  scheduleProbe();
  if (before) emit();
}

/** The server answered (with any status): it can be reached. */
export function markReachable(): void {
  if (!failedRequest) return;
  const before = isOnline();
  failedRequest = false;
  stopProbe();
  if (before !== isOnline()) emit();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    // The browser is back: try the server again rather than trusting an old failure.
    failedRequest = false;
    stopProbe();
    emit();
  });
  window.addEventListener('offline', emit);
}

/** Calls `listener` whenever the answer of isOnline() may have changed; returns the unsubscribe. */
export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the page can reach the server; re-renders when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeConnection, isOnline, () => true);
}

/**
 * Resolves once the page can reach the server again (at once when it already can); rejects with
 * the signal's reason when `signal` aborts first.
 */
export function waitForConnection(signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  if (isOnline()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      stop();
      reject(signal?.reason as Error);
    };
    const stop = subscribeConnection(() => {
      if (!isOnline()) return;
      stop();
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
