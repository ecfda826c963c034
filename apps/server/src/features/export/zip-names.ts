import { acceptedFileType } from '@kinchart/shared/files';
import { replaceInvisible, trimEndChars, trimStartChars } from '@kinchart/shared/text';

// Names inside the export zip are the user's own names (record names, people's names), so they
// are made safe for every file system the zip may be unpacked on: no path separators or control
// characters, none of the characters Windows refuses, no reserved device names, no trailing dot
// or space, at most 120 characters — and unique ignoring case (Windows and macOS fold case).

const MAX_NAME = 120;
/** What Windows refuses in a name, and path separators; invisible characters go by the shared rule. */
const UNSAFE = /[<>:"/\\|?*]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 && /^\.[A-Za-z0-9]{1,8}$/.test(name.slice(dot)) ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** One path segment: what a user named a thing, made safe. */
export function safeSegment(raw: string, fallback: string): string {
  let name = replaceInvisible(raw.normalize('NFC'), '_').replace(UNSAFE, '_').replace(/\s+/g, ' ').trim();
  name = trimEndChars(trimStartChars(name, '.'), '. ');
  const [first, ext] = splitExtension(name);
  let base = first;
  if (RESERVED.test(base)) base = `${base}_`;
  if (!base) base = fallback;
  // Cut by code points so no surrogate pair is split.
  const room = MAX_NAME - ext.length;
  base = trimEndChars(Array.from(base).slice(0, room).join(''), '. ') || fallback;
  return `${base}${ext}`;
}

/** The stored type's extension, added when the name lacks it ('Lab results' → 'Lab results.pdf'). */
export function withExtension(name: string, mime: string): string {
  const extensions = acceptedFileType(mime)?.extensions ?? [];
  const [, ext] = splitExtension(name);
  if (extensions.length === 0 || extensions.includes(ext.slice(1).toLowerCase())) return name;
  return `${name}.${extensions[0]}`;
}

/** Hands out names in one folder of the zip, each unique ignoring case: 'a.pdf', 'a (2).pdf', … */
export function uniqueNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name: string) => {
    const [base, ext] = splitExtension(name);
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = `${base} (${n})${ext}`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}
