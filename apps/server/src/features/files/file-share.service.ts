import type { Readable } from 'node:stream';
import type { ShareLink, SharedFilesResponse } from '@kinchart/shared/files';
import { SHARE_LINK_GONE_MESSAGE, SHARE_LINK_TTL_HOURS } from '@kinchart/shared/files';
import type { Db } from '../../db/database';
import { notFound } from '../../lib/http-errors';
import { newId, nowIso, randomToken, sha256Hex } from '../../lib/ids';
import { roleAllows } from '@kinchart/shared/people';
import { recordAudit } from '../../common/audit';
import { addNotification } from '../../common/notify';
import type { Actor, PersonAccessService } from '../../common/person-access';
import type { ShareLinkRow } from './file-share.repository';
import { createShareLinkRepository } from './file-share.repository';
import type { MedicalFileRow } from './medical-file.repository';
import type { MedicalFileService, RouteName } from './medical-file.service';
import { FILE_NOT_FOUND } from './medical-file.service';
import { translatorOfUser } from '../../i18n/recipients';

const TTL_MS = SHARE_LINK_TTL_HOURS * 3_600_000;
/** At most one "opened" notification per link in each 5-minute window. */
const NOTIFY_WINDOW_MS = 5 * 60_000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Time-limited links for the View Files modal's QR code (decision 0006): a signed-out visitor can open the
 * selected files for 24 hours unless the owner revokes the link first. The token (256 bits) lives
 * only in the link; the database keeps its SHA-256.
 *
 * A link hands a person's files to anyone who holds it, which is deciding who has access: so making
 * one over a shared person's files takes a manager (DESIGN §11; decision 0019), and the link opens a
 * file only while its maker still may (a revoked or expired share closes it at once). The link
 * stays its maker's: they revoke it, and hear when it is opened.
 */
export function createFileShareService(deps: { db: Db; files: MedicalFileService; access: PersonAccessService; publicUrl: string }) {
  const { db, files, access } = deps;
  const links = createShareLinkRepository(db);

  /** Whether the link's maker may still hand out `row` (the owner, or a manager of its person). */
  async function stillShareable(makerId: string, row: MedicalFileRow): Promise<boolean> {
    if (row.profile_id === null) return row.user_id === makerId;
    const found = await access.lookup(makerId, row.profile_id);
    return found !== undefined && found.ownerId === row.user_id && roleAllows(found.role, 'manager');
  }

  async function shareable(makerId: string, rows: MedicalFileRow[]): Promise<MedicalFileRow[]> {
    const keep: MedicalFileRow[] = [];
    for (const row of rows) if (await stillShareable(makerId, row)) keep.push(row);
    return keep;
  }

  /** Expired, revoked and unknown links are one and the same 404. */
  async function resolve(token: string): Promise<{ link: ShareLinkRow; fileIds: string[] }> {
    const link = TOKEN_PATTERN.test(token) ? await links.findByTokenHash(sha256Hex(token)) : undefined;
    if (!link || link.revoked_at || link.expires_at <= nowIso()) throw notFound(SHARE_LINK_GONE_MESSAGE);
    return { link, fileIds: JSON.parse(link.file_ids) as string[] };
  }

  const sharedFile = (token: string) => (row: MedicalFileRow) => ({
    id: row.id,
    name: row.display_name,
    file_type: row.file_type,
    size: Number(row.size),
    url: `/api/shared/${token}/files/${row.id}`,
  });

  return {
    async create(actor: Actor, route: RouteName, fileIds: string[]): Promise<ShareLink> {
      const userId = actor.userId;
      const ip = actor.ip ?? '';
      const unique = [...new Set(fileIds)];
      const rows = await files.repository.findManyById(unique);
      if (rows.length !== unique.length) throw notFound(FILE_NOT_FOUND);
      // Each person once: a file the user cannot reach is the same 404 as a missing one; a viewer's
      // or an editor's is 403.
      const checked = new Set<string>();
      for (const row of rows) {
        const key = `${row.user_id}:${row.profile_id ?? ''}`;
        if (checked.has(key)) continue;
        await access.row(actor, row, { need: 'manager', what: route }, FILE_NOT_FOUND);
        checked.add(key);
      }
      const token = randomToken();
      const now = new Date();
      const link = {
        id: newId(),
        userId,
        tokenHash: sha256Hex(token),
        fileIds: unique,
        expiresAt: nowIso(new Date(now.getTime() + TTL_MS)),
        createdAt: nowIso(now),
      };
      await links.insert(link);
      await recordAudit(db, { userId, action: 'file_share_create', ip, detail: { linkId: link.id, files: unique.length } });
      return { id: link.id, url: `${deps.publicUrl}/shared/${token}`, expires_at: link.expiresAt };
    },

    async revoke(userId: string, linkId: string): Promise<void> {
      if (!(await links.revoke(userId, linkId))) throw notFound('Share link not found');
    },

    /** The visitor's list. Tells the owner their records were opened (DESIGN §5 audit as well). */
    async open(token: string, ip: string): Promise<SharedFilesResponse> {
      const { link, fileIds } = await resolve(token);
      const found = new Map((await shareable(link.user_id, await files.repository.findManyById(fileIds))).map((row) => [row.id, row]));
      const rows = fileIds.flatMap((id) => found.get(id) ?? []);
      const window = Math.floor(Date.now() / NOTIFY_WINDOW_MS);
      const tr = await translatorOfUser(db, link.user_id);
      await addNotification(db, {
        userId: link.user_id,
        type: 'info',
        level: 'info',
        title: tr.t('notice.shared_records_opened.title'),
        message: tr.t('notice.shared_records_opened', { count: fileIds.length }),
        dedupeKey: `file-share-open:${link.id}:${window}`,
      });
      await recordAudit(db, { userId: link.user_id, action: 'file_share_open', ip, detail: { linkId: link.id } });
      return { files: rows.map(sharedFile(token)), expires_at: link.expires_at };
    },

    async openFile(token: string, fileId: string, ip: string): Promise<{ file: MedicalFileRow; body: Readable }> {
      const { link, fileIds } = await resolve(token);
      if (!fileIds.includes(fileId)) throw notFound(FILE_NOT_FOUND);
      const row = await files.repository.findById(fileId);
      if (!row || !(await stillShareable(link.user_id, row))) throw notFound(FILE_NOT_FOUND);
      return files.openChecked(row, { ip, via: 'share_link' });
    },
  };
}
export type FileShareService = ReturnType<typeof createFileShareService>;
