import { CompactEncrypt } from 'jose';
import { PIN_FORMAT_MESSAGE } from '@kinchart/shared/emergency';
import type { ShlLink, ShlManifest, ShlManifestFile, ShlManifestRequest } from '@kinchart/shared/shl';
import {
  SHL_CONTENT_TYPE,
  SHL_FHIR_VERSION,
  SHL_FLAG,
  SHL_LABEL,
  SHL_LOCATION_TTL_SECONDS,
  SHL_RECIPIENT_MAX,
  encodeShlink,
} from '@kinchart/shared/shl';
import { replaceInvisible } from '@kinchart/shared/text';
import type { Db } from '../../db/database';
import { fromFlag } from '../../lib/flags';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import { randomToken, sha256Hex } from '../../lib/ids';
import { recordAudit } from '../../common/audit';
import type { Actor, PersonAccess } from '../../common/person-access';
import type { EmergencyService, UnlockedShare } from '../emergency/emergency.service';
import { NOT_FOUND_MESSAGE } from '../emergency/emergency.service';
import type { ProfileService } from '../profiles/profile.service';
import { buildEmergencySummary } from './emergency-summary';
import { allergyTransfer } from '../allergies/allergies.service';
import { shlKey } from './shl-keys';
import { createShlRepository } from './shl.repository';

/** The kind of emergency code: an account's own (self) or a family member's (family). */
type ShareKind = UnlockedShare['kind'];

// SMART Health Links for emergency codes (HL7 SMART Health Cards and Links IG, STU1), and the
// clinicians' FHIR download on the emergency page. Both open the code with its PIN through the
// emergency service's one PIN check, so every guess — on the page, in a link's passcode, on the
// download — counts against the same counters and the same lock (DESIGN §7). A link also keeps its
// own lifetime count of wrong passcodes, and is disabled for good when its budget is spent
// (docs/decisions/0020).

export const NO_LINK_YET_MESSAGE = 'No SMART Health Link has been made for this code yet';
export const LINK_DISABLED_MESSAGE = 'This SMART Health Link was disabled after too many wrong passcodes. Make a new one.';
/** STU1: a link's lifetime budget of wrong passcodes — the same ten as the code's PIN (DESIGN §7). */
export const SHL_MAX_PASSCODE_FAILURES = 10;
/** The path of a file's `location` URL; its next segment is a bearer token (redacted in logs). */
export const SHL_LOCATION_PATH = '/shl-files/';

/** Free text from a stranger, bound for the owner's notification: one line, no invisible characters. */
export function cleanRecipient(recipient: string): string {
  return Array.from(replaceInvisible(recipient, ' ').replace(/\s+/g, ' ').trim()).slice(0, SHL_RECIPIENT_MAX).join('');
}

export function createShlService(deps: {
  db: Db;
  emergency: EmergencyService;
  profiles: Pick<ProfileService, 'bundle'>;
  masterKey: Buffer;
  publicUrl: string;
}) {
  const repo = createShlRepository(deps.db);
  const manifestUrl = (manifestId: string) => `${deps.publicUrl}/shl/${manifestId}`;

  async function summaryFor(userId: string, profileId: string): Promise<Record<string, unknown>> {
    const person = await deps.profiles.bundle(userId, profileId);
    if (!person) throw notFound(NOT_FOUND_MESSAGE);
    return buildEmergencySummary(person, await allergyTransfer(deps.db).entries(userId, profileId));
  }

  /**
   * STU1 .files.location: a short-lived URL that needs no further authentication — a fresh 256-bit
   * token whose hash names the stored JWE for one GET within the hour. Stored in the database, so
   * any instance answers it.
   */
  async function locationFor(link: { id: string; user_id: string }, jwe: string, now: Date): Promise<string> {
    const token = randomToken();
    await repo.pruneLocations(now);
    const expiresAt = new Date(now.getTime() + SHL_LOCATION_TTL_SECONDS * 1000);
    await repo.insertLocation({ userId: link.user_id, linkId: link.id, tokenHash: sha256Hex(token), jwe, expiresAt, now });
    return `${deps.publicUrl}${SHL_LOCATION_PATH}${token}`;
  }

  /**
   * What a refused manifest request answers. A wrong passcode (401) stays counted on the link and
   * reports the attempts left before the link is disabled — its own lifetime budget or the code's
   * PIN budget, whichever is smaller — and at none left the link is disabled for good. Anything
   * refused before the passcode was checked (inactive code, lock, per-address cap) was not a
   * wrong passcode: the attempt is given back.
   */
  async function passcodeRefusal(
    link: { id: string; user_id: string; failed_passcodes: number },
    error: unknown,
    ip: string,
  ): Promise<unknown> {
    const wrong = error instanceof HttpError && error.statusCode === 401 && typeof error.extra.remainingAttempts === 'number';
    if (!wrong) {
      await repo.releasePasscodeAttempt(link.id);
      return error;
    }
    const remainingAttempts = Math.max(
      0,
      Math.min(SHL_MAX_PASSCODE_FAILURES - link.failed_passcodes, error.extra.remainingAttempts as number),
    );
    if (remainingAttempts === 0 && (await repo.disable(link.id, new Date()))) {
      await recordAudit(deps.db, {
        userId: link.user_id,
        action: 'shl_link_disabled',
        ip,
        detail: { failed_passcodes: link.failed_passcodes },
      });
    }
    return new HttpError(401, error.message, { remainingAttempts });
  }

  return {
    /**
     * The owner's link for an active code. `create` (POST) makes it on first ask and answers the
     * same link every time after; without it (GET) the link is only read — no state changes on GET
     * (DESIGN §5), so a cross-site top-level navigation cannot make one.
     */
    async link(person: PersonAccess, actor: Actor, opts: { create: boolean }): Promise<{ link: ShlLink; created: boolean }> {
      const userId = person.ownerId;
      const row = await repo.findOwnedShare(userId, person.profileId);
      if (!row) throw notFound('Family member not found');
      if (!row.share_id) throw notFound('QR code has not been set up');
      if (!fromFlag(row.is_active)) throw notFound('Activate the QR code to share it as a SMART Health Link');
      let manifestId = row.manifest_id;
      let created = false;
      if (row.link_id && row.disabled_at) {
        // Disabled for good (STU1 lifetime count): only a new link, with a new id and key, answers again.
        if (!opts.create) throw notFound(LINK_DISABLED_MESSAGE);
        await repo.removeDisabled(userId, row.link_id);
        manifestId = null;
      }
      if (!manifestId) {
        if (!opts.create) throw notFound(NO_LINK_YET_MESSAGE);
        const made = await repo.create(userId, row.share_id, randomToken());
        manifestId = made.manifestId;
        created = made.created;
        if (made.created) {
          const actorId = actor.userId === userId ? null : actor.userId;
          await recordAudit(deps.db, {
            userId,
            actorId,
            profileId: person.profileId,
            action: 'shl_link_create',
            ip: actor.ip ?? null,
            detail: { kind: row.kind },
          });
        }
      }
      const payload = {
        url: manifestUrl(manifestId),
        key: Buffer.from(shlKey(deps.masterKey, manifestId)).toString('base64url'),
        flag: SHL_FLAG,
        label: SHL_LABEL,
        v: 1,
      };
      return { link: { shlink: encodeShlink(payload), payload }, created };
    },

    /**
     * POST {manifest url}: with the right passcode (the code's PIN), one file — the person's
     * emergency IPS Bundle as a compact JWE (alg dir, enc A256GCM) under the link's key, embedded,
     * or as a one-hour `location` when it is longer than the receiver's `embeddedLengthMax`.
     * Unknown and disabled links and inactive codes are 404; a wrong passcode is 401 with the
     * attempts left before the link is disabled; a locked code is 429 with Retry-After.
     */
    async manifest(manifestId: string, request: ShlManifestRequest, ip: string): Promise<ShlManifest> {
      const link = await repo.reservePasscodeAttempt(manifestId, SHL_MAX_PASSCODE_FAILURES);
      if (!link) throw notFound(NOT_FOUND_MESSAGE);
      let share: UnlockedShare;
      try {
        share = await deps.emergency.unlock({ id: link.emergency_share_id }, request.passcode ?? '', ip, 'shl');
      } catch (error) {
        throw await passcodeRefusal(link, error, ip);
      }
      await repo.releasePasscodeAttempt(link.id);

      const now = new Date();
      const bundle = await summaryFor(share.userId, share.profileId);
      const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(bundle)))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: SHL_CONTENT_TYPE })
        .encrypt(shlKey(deps.masterKey, manifestId));
      const file = {
        contentType: SHL_CONTENT_TYPE,
        lastUpdated: now.toISOString(),
        status: 'can-change',
        fhirVersion: SHL_FHIR_VERSION,
      } as const;
      // STU1 .files.embedded: "the server SHALL NOT return embedded payload longer than the client-designated maximum".
      const fits = request.embeddedLengthMax === undefined || jwe.length <= request.embeddedLengthMax;
      const entry: ShlManifestFile = fits ? { ...file, embedded: jwe } : { ...file, location: await locationFor(link, jwe, now) };
      await deps.emergency.notifyAccess(share, 'shl', cleanRecipient(request.recipient) || 'Someone');
      await recordAudit(deps.db, { userId: share.userId, action: 'shl_access', ip, detail: { kind: share.kind } });
      return { files: [entry] };
    },

    /**
     * GET {location}: the file's JWE, once, within the hour, while the link and its code are live
     * (STU1 .files.location: `content-type: application/jose`). Anything else is the same 404.
     */
    async locationFile(token: string): Promise<string> {
      const jwe = await repo.takeLocation(sha256Hex(token), new Date());
      if (jwe === undefined) throw notFound(NOT_FOUND_MESSAGE);
      return jwe;
    },

    /** The emergency page's 'Download for clinicians (FHIR)': the same summary, for the same PIN. */
    async emergencyFhir(kind: ShareKind, shareId: string, pin: string | undefined, ip: string): Promise<Record<string, unknown>> {
      if (!pin) throw badRequest(PIN_FORMAT_MESSAGE);
      const share = await deps.emergency.unlock({ kind, shareId }, pin, ip, 'fhir');
      const bundle = await summaryFor(share.userId, share.profileId);
      await deps.emergency.notifyAccess(share, 'fhir');
      await recordAudit(deps.db, { userId: share.userId, action: 'emergency_fhir_download', ip, detail: { kind } });
      return bundle;
    },
  };
}
export type ShlService = ReturnType<typeof createShlService>;
