/**
 * Where to go after signing in, carried as `?next=` by the web app and in the body of
 * POST /api/auth/oidc/start. Only a path on this site is followed: it must start with one "/" —
 * never "//host" or "/\host", which browsers read as another site — and hold no backslash or
 * control character. Plain string work (DESIGN §3: no regular expressions on user input that can
 * backtrack). Zod-free: /login loads it (decision 0017).
 */
/** The query parameter that carries it. */
export const NEXT_PARAM = 'next';
export const NEXT_PATH_MAX = 2048;

export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || value.length > NEXT_PATH_MAX) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || value[i] === '\\') return null;
  }
  return value;
}
