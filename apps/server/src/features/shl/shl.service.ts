import { CompactEncrypt } from 'jose';
import { PIN_FORMAT_MESSAGE } from '@kinchart/shared/emergency';
import type { ShlLink, ShlManifest, ShlManifestRequest } from '@kinchart/shared/shl';
import { SHL_CONTENT_TYPE, SHL_FLAG, SHL_LABEL, SHL_RECIPIENT_MAX, encodeShlink } from '@kinchart/shared/shl';
import { replaceInvisible } from '@kinchart/shared/text';
import type { Db } from '../../db/database';
import { fromFlag } from '../../lib/flags';
import { badRequest, notFound } from '../../lib/http-errors';
import { randomToken } from '../../lib/ids';
import { recordAudit } from '../../common/audit';
import type { Actor, PersonAccess } from '../../common/person-access';
import type { EmergencyService } from '../emergency/emergency.service';
import { NOT_FOUND_MESSAGE } from '../emergency/emergency.service';
import type { ShareKind } from '../emergency/emergency.repository';
import type { ProfileService } from '../profiles/profile.service';
import { buildEmergencySummary } from './emergency-summary';
import { shlKey } from './shl-keys';
import { createShlRepository } from './shl.repository';

// SMART Health Links for emergency codes (HL7 SMART Health Cards and Links IG, STU1), and the
// clinicians' FHIR download on the emergency page. Both open the code with its PIN through the
// emergency service's one PIN check, so every guess — on the page, in a link's passcode, on the
// download — counts against the same counters and the same lock (DESIGN §7).

export const NO_LINK_YET_MESSAGE = 'No SMART Health Link has been made for this code yet';

/** Free text from a stranger, bound for the owner's notification: one line, no invisible characters. */
export function cleanRecipient(recipient: string): string {
  return Array.from(replaceInvisible(recipient, ' ').replace(/\s+/g, ' ').trim())
    .slice(0, SHL_RECIPIENT_MAX)
    .join('');
}

export function createShlService(deps: { db: Db; emergency: EmergencyService; profiles: Pick<ProfileService, 'bundle'>; masterKey: Buffer; publicUrl: string }) {
  const repo = createShlRepository(deps.db);
  const manifestUrl = (manifestId: string) => `${deps.publicUrl}/shl/${manifestId}`;

  async function summaryFor(userId: string, profileId: string): Promise<Record<string, unknown>> {
    const person = await deps.profiles.bundle(userId, profileId);
    if (!person) throw notFound(NOT_FOUND_MESSAGE);
    return buildEmergencySummary(person);
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
      if (!manifestId) {
        if (!opts.create) throw notFound(NO_LINK_YET_MESSAGE);
        const made = await repo.create(userId, row.share_id, randomToken());
        manifestId = made.manifestId;
        created = made.created;
        if (made.created) {
          const actorId = actor.userId === userId ? null : actor.userId;
          await recordAudit(deps.db, { userId, actorId, profileId: person.profileId, action: 'shl_link_create', ip: actor.ip ?? null, detail: { kind: row.kind } });
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
     * emergency IPS Bundle as a compact JWE (alg dir, enc A256GCM) under the link's key. Unknown
     * links and inactive codes are 404; a wrong passcode is 401 with remainingAttempts; a locked
     * code is 429 with Retry-After.
     */
    async manifest(manifestId: string, request: ShlManifestRequest, ip: string): Promise<ShlManifest> {
      const link = await repo.findByManifestId(manifestId);
      if (!link) throw notFound(NOT_FOUND_MESSAGE);
      const share = await deps.emergency.unlock({ id: link.emergency_share_id }, request.passcode ?? '', ip, 'shl');
      const bundle = await summaryFor(share.userId, share.profileId);
      const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(bundle)))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: SHL_CONTENT_TYPE })
        .encrypt(shlKey(deps.masterKey, manifestId));
      await deps.emergency.notifyAccess(share, 'shl', cleanRecipient(request.recipient) || 'Someone');
      await recordAudit(deps.db, { userId: share.userId, action: 'shl_access', ip, detail: { kind: share.kind } });
      return { status: 'can-change', files: [{ contentType: SHL_CONTENT_TYPE, embedded: jwe, lastUpdated: new Date().toISOString() }] };
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
