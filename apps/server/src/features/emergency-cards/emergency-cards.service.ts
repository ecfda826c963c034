import type { EmergencyEssentials } from '@kinchart/shared/emergency';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-errors';
import { fromFlag } from '../../lib/flags';
import { verifySecret } from '../../lib/passwords';
import { recordAudit } from '../../common/audit';
import type { Actor, PersonAccess } from '../../common/person-access';
import { createEmergencyCardRepository } from './emergency-cards.repository';
import { walletCardPdf } from './wallet-card-pdf';
import { lockscreenPng, qrPng } from './emergency-images';
import { asciiSlug } from '../../lib/ascii-slug';
import { cardTexts } from './emergency-card-content';
import { printableTranslator } from '../../i18n/printable';
import { translatorOfUser } from '../../i18n/recipients';

export const CARD_NOT_FOUND_MESSAGE = 'QR code not found or inactive';
export const WRONG_CARD_PIN_MESSAGE = 'That is not this code’s PIN. Type the PIN you chose for it, or leave “Print the PIN” off.';

export type CardFormat = 'card_pdf' | 'qr_png' | 'lockscreen_png';
export interface CardDownload {
  body: Buffer;
  contentType: string;
  fileName: string;
}

/**
 * The essentials a code shows without its PIN, or null when the owner has not opted in (DESIGN §7,
 * `essentials_without_pin`). Given from app.ts so this feature does not reach into the emergency one.
 */
export type EssentialsFor = (ownerId: string, profileId: string) => Promise<EmergencyEssentials | null>;

const FORMATS: Record<CardFormat, { contentType: string; suffix: string }> = {
  card_pdf: { contentType: 'application/pdf', suffix: 'card.pdf' },
  qr_png: { contentType: 'image/png', suffix: 'qr.png' },
  lockscreen_png: { contentType: 'image/png', suffix: 'lockscreen.png' },
};

/** An ASCII file name from the person's name; never the share id (it is the code's secret half). */
export function downloadFileName(name: string, format: CardFormat): string {
  const slug = asciiSlug(name);
  return `emergency-${slug ? `${slug}-` : ''}${FORMATS[format].suffix}`;
}

/** Downloads of an active code for its owner: wallet card, QR image, lock-screen image (DESIGN §7). */
export function createEmergencyCardService(deps: { db: Db; publicUrl: string; essentialsFor: EssentialsFor }) {
  const repo = createEmergencyCardRepository(deps.db);

  return {
    /** `person` is resolved by the route with the one access function (the owner, or a manager). */
    async download(
      person: PersonAccess,
      actor: Actor,
      format: CardFormat,
      options: { pin?: string | undefined; paper: 'a4' | 'letter' },
    ): Promise<CardDownload> {
      const userId = person.ownerId;
      const code = await repo.findCode(userId, person.profileId);
      if (!code || !fromFlag(code.is_active)) throw notFound(CARD_NOT_FOUND_MESSAGE);
      // The signed-in owner proves nothing by guessing their own PIN, so a wrong one is not counted.
      let pin: string | null = null;
      if (format === 'card_pdf' && options.pin !== undefined && options.pin !== '') {
        if (!/^\d{4}$/.test(options.pin) || !(await verifySecret(code.pin_hash, options.pin))) throw badRequest(WRONG_CARD_PIN_MESSAGE);
        pin = options.pin;
      }
      // DESIGN §7: qr_data is PUBLIC_URL + /emergency/{id} (own) or /family/emergency/{id} (member).
      const qrData = `${deps.publicUrl}${code.kind === 'self' ? '/emergency' : '/family/emergency'}/${code.share_id}`;
      const essentials = await deps.essentialsFor(userId, person.profileId);
      // Issue 35: printed in the requester's language, when the fonts draw it (else English).
      const tr = printableTranslator(await translatorOfUser(deps.db, actor.userId));
      const name = essentials?.name?.trim() || code.name?.trim() || tr.t('pdf.card.default_name');
      const input = { name, qrData, essentials, pin, paper: options.paper, texts: cardTexts(tr) };
      const body =
        format === 'card_pdf' ? await walletCardPdf(input) : format === 'qr_png' ? await qrPng(qrData) : await lockscreenPng(input);
      await recordAudit(deps.db, {
        userId,
        action: 'emergency_card_download',
        ip: actor.ip ?? null,
        profileId: person.profileId,
        actorId: actor.userId === userId ? null : actor.userId,
        detail: { kind: code.kind, format, pin_printed: pin !== null },
      });
      return { body, contentType: FORMATS[format].contentType, fileName: downloadFileName(code.name ?? '', format) };
    },
  };
}
export type EmergencyCardService = ReturnType<typeof createEmergencyCardService>;
