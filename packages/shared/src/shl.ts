import { z } from 'zod';
import { trimEndChars } from './text';

// SMART Health Links (HL7 SMART Health Cards and Links IG, STU1:
// https://hl7.org/fhir/uv/smart-health-cards-and-links/links-specification.html) for emergency codes.
// The passcode is the code's PIN and shares its attempt counter and lock rules (DESIGN §7).

/**
 * STU1 flags, in alphabetical order. L: long-term use — the link has no `exp` and its file is
 * `can-change` (the summary follows the profile), so a receiver may fetch the manifest again for
 * updates while the code stays active. P: a passcode (the code's PIN) is required.
 */
export const SHL_FLAG = 'LP';
/** Shown to anyone who scans the link, before any passcode: it names no person on purpose. */
export const SHL_LABEL = 'Kinchart emergency summary';
export const SHL_CONTENT_TYPE = 'application/fhir+json';
export const SHL_RECIPIENT_MAX = 200;

/** The decoded `shlink:/` payload. */
export const shlPayloadSchema = z.object({
  url: z.string(),
  key: z.string().length(43),
  flag: z.string().optional(),
  label: z.string().max(80).optional(),
  exp: z.number().optional(),
  v: z.number().optional(),
});
export type ShlPayload = z.infer<typeof shlPayloadSchema>;

/** GET /api/user/wearable-qr/shl and /api/user/family/members/{id}/qr/shl: the owner's link. */
export const shlLinkSchema = z.object({
  /** `shlink:/` followed by the base64url JSON payload. */
  shlink: z.string(),
  payload: shlPayloadSchema,
});
export type ShlLink = z.infer<typeof shlLinkSchema>;

/** POST {manifest url}: who is asking, and the passcode (the code's PIN). */
export const shlManifestRequestSchema = z.object({
  recipient: z
    .string({ message: 'recipient is required' })
    .trim()
    .min(1, 'recipient is required')
    .max(SHL_RECIPIENT_MAX, `recipient must be at most ${SHL_RECIPIENT_MAX} characters`),
  passcode: z.string().max(64).optional(),
  /** STU1: no `embedded` longer than this; a longer file comes as a `location` (0 means never embedded). */
  embeddedLengthMax: z.number().int().min(0).optional(),
});
export type ShlManifestRequest = z.infer<typeof shlManifestRequestSchema>;

/** STU1's file `fhirVersion` for FHIR content: Kinchart's Bundles are FHIR R4. */
export const SHL_FHIR_VERSION = '4.0.1';
/** How long a file's `location` URL answers (STU1: "SHALL NOT exceed one hour"). */
export const SHL_LOCATION_TTL_SECONDS = 3600;

// STU1 "SMART Health Link Manifest File": the manifest is `{ list?, files }`; `status` and
// `fhirVersion` are properties of each file entry, not of the manifest (docs/decisions/0020).
const shlFileBase = z.object({
  contentType: z.literal(SHL_CONTENT_TYPE),
  lastUpdated: z.string().optional(),
  /** The summary follows the person's profile: it can change between fetches. */
  status: z.literal('can-change'),
  fhirVersion: z.literal(SHL_FHIR_VERSION),
});
/** One file: its JWE `embedded`, or a short-lived `location` that answers the JWE to a GET — exactly one. */
export const shlManifestFileSchema = z.union([
  shlFileBase.extend({ embedded: z.string() }).strict(),
  shlFileBase.extend({ location: z.string() }).strict(),
]);
export const shlManifestSchema = z.object({ files: z.array(shlManifestFileSchema) }).strict();
export type ShlManifestFile = z.infer<typeof shlManifestFileSchema>;
export type ShlManifest = z.infer<typeof shlManifestSchema>;

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** UTF-8 text → base64url without padding (no Buffer or btoa: this runs in the browser and in Node). */
function toBase64Url(text: string): string {
  // UTF-8 through encodeURIComponent: plain ES, no TextEncoder typings needed in this package.
  const bytes = Array.from(encodeURIComponent(text).matchAll(/%([0-9A-F]{2})|[^%]/g), (m) =>
    m[1] ? parseInt(m[1], 16) : m[0].charCodeAt(0),
  );
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j += 1) out += B64URL[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

function fromBase64Url(value: string): string {
  const clean = trimEndChars(value, '=');
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const c of clean) {
    const v = B64URL.indexOf(c === '+' ? '-' : c === '/' ? '_' : c);
    if (v < 0) throw new Error('Not base64url');
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return decodeURIComponent(bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
}

/** Encodes a payload as a `shlink:/` URI. */
export function encodeShlink(payload: ShlPayload): string {
  return `shlink:/${toBase64Url(JSON.stringify(payload))}`;
}

/** Decodes a `shlink:/` URI (with or without a viewer prefix ending in `#`). */
export function decodeShlink(link: string): ShlPayload {
  const at = link.indexOf('shlink:/');
  if (at < 0) throw new Error('Not a SMART Health Link');
  return shlPayloadSchema.parse(JSON.parse(fromBase64Url(link.slice(at + 'shlink:/'.length))));
}
