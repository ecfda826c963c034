/**
 * Where to go after signing in or up, carried in the address as `?next=` (the invitation page
 * sends visitors through /signup and /login and back). Only a path on this site is followed: it
 * must start with one "/" — never "//host" or "/\host", which browsers read as another site — and
 * hold no backslash or control character. Anything else is ignored, so a crafted link cannot send
 * someone elsewhere after they sign in.
 */
export const NEXT_PARAM = 'next';

const MAX_LENGTH = 2048;

export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || value[i] === '\\') return null;
  }
  return value;
}

/** `path` with `?next={next}` when `next` is a safe path, else `path` alone. */
export function withNext(path: string, next: string | null | undefined): string {
  const safe = safeNextPath(next);
  return safe ? `${path}?${new URLSearchParams({ [NEXT_PARAM]: safe }).toString()}` : path;
}
