/**
 * "mia-rivera" from "Mía Rivera": lower-case ASCII words joined by dashes, at most `max`
 * characters (whole words only), for file names in headers that need no encoding. Plain string
 * work, no backtracking regular expressions on user text (DESIGN §3).
 */
export function asciiSlug(text: string | null, max = 40): string {
  const words = (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > max) break;
    slug = next;
  }
  return slug;
}
