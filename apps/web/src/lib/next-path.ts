import { NEXT_PARAM, safeNextPath } from '@kinchart/shared/next-path';

/**
 * Where to go after signing in or up, carried in the address as `?next=` (the invitation page
 * sends visitors through /signup and /login and back). The rule of what may be followed lives in
 * the shared package, because the server checks the same path before single sign-on
 * (docs/decisions/0029): only a path on this site, so a crafted link cannot send someone elsewhere
 * after they sign in.
 */
export { NEXT_PARAM, safeNextPath };

/** `path` with `?next={next}` when `next` is a safe path, else `path` alone. */
export function withNext(path: string, next: string | null | undefined): string {
  const safe = safeNextPath(next);
  return safe ? `${path}?${new URLSearchParams({ [NEXT_PARAM]: safe }).toString()}` : path;
}
