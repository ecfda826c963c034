import { stripInvisible } from '@kinchart/shared/text';
import { acceptedFileType, isInlineType } from '@kinchart/shared/files';

/** Strips what must never reach a header or a file system: invisible characters and path separators. */
function cleanName(name: string): string {
  return stripInvisible(name).replace(/[/\\]/g, '_').trim();
}

/** The name a download gets: the record's name, with the stored type's extension when it lacks one. */
export function downloadName(displayName: string, mime: string): string {
  const name = cleanName(displayName) || 'file';
  const extensions = acceptedFileType(mime)?.extensions ?? [];
  const dot = name.lastIndexOf('.');
  const current = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (extensions.length === 0 || extensions.includes(current)) return name;
  return `${name}.${extensions[0]}`;
}

/**
 * RFC 6266 Content-Disposition with an ASCII `filename` fallback and the exact UTF-8 name in
 * `filename*` (RFC 8187 encoding: attr-char stays, everything else is percent-encoded).
 */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const fallback =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\%]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** DESIGN §6: inline with a sandbox CSP for PDF and images, attachment otherwise, always nosniff. */
export function contentHeaders(file: { display_name: string; file_type: string; size: number }): Record<string, string> {
  const inline = isInlineType(file.file_type);
  return {
    'Content-Type': file.file_type === 'text/plain' ? 'text/plain; charset=utf-8' : file.file_type,
    'Content-Length': String(file.size),
    'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', downloadName(file.display_name, file.file_type)),
    // Only `sandbox`: a stricter default-src/object-src would stop browsers' built-in PDF viewers.
    'Content-Security-Policy': 'sandbox',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  };
}
