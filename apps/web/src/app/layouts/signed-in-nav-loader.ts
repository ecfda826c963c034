import { useEffect, useSyncExternalStore, type ComponentType } from 'react';
import type { AuthUser } from '@kinchart/shared/auth';
import { loadCatalogParts } from '../../i18n/catalogs';

/*
 * The signed-in bar brings upload, import, export and notifications with it, and zod through
 * them: it is fetched once someone is signed in, so /login and the other public pages of the app
 * layout do not download it first (DESIGN §9). The private routes fetch it beside their own chunk
 * (router.tsx), and the private layout waits for it, so a signed-in page never shows without it.
 */

type SignedInNavComponent = ComponentType<{ user: AuthUser }>;
export interface SignedInNavState {
  Nav: SignedInNavComponent | undefined;
  failed: boolean;
}

let state: SignedInNavState = { Nav: undefined, failed: false };
let loading: Promise<SignedInNavComponent> | undefined;
const listeners = new Set<() => void>();

function update(next: SignedInNavState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Fetches the signed-in bar once; a failed download is tried again on the next call. */
export function loadSignedInNav(): Promise<SignedInNavComponent> {
  // Its notifications, search and upload speak from the app's catalog and the server's (decision 0056).
  loading ??= Promise.all([import('./signed-in-nav'), loadCatalogParts('server', 'app')]).then(
    ([{ SignedInNav }]) => {
      update({ Nav: SignedInNav, failed: false });
      return SignedInNav;
    },
    (error: unknown) => {
      loading = undefined;
      update({ Nav: undefined, failed: true });
      throw error;
    },
  );
  return loading;
}

/** The signed-in bar once it has arrived; `wanted` starts its download. */
export function useSignedInNav(wanted: boolean): SignedInNavState {
  const current = useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
  const loaded = current.Nav !== undefined;
  useEffect(() => {
    if (!wanted || loaded) return;
    loadSignedInNav().catch((error: unknown) => console.error('The signed-in bar could not be loaded:', error));
  }, [wanted, loaded]);
  return current;
}
