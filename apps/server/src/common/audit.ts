import type { Db } from '../db/database';
import { newId, nowIso } from '../lib/ids';

// DESIGN §5: the audit trail. `detail` never carries health data — only ids and kinds.
export type AuditAction =
  | 'signup'
  | 'login'
  | 'logout'
  | 'password_change'
  | 'email_change'
  | 'account_delete'
  | 'qr_setup'
  | 'qr_toggle'
  | 'qr_pin_change'
  | 'qr_settings'
  | 'qr_pin_unlock'
  | 'emergency_view'
  | 'emergency_pin_failed'
  | 'file_download'
  | 'file_share_create'
  | 'file_share_open'
  | 'export'
  | 'import'
  | 'emergency_fhir_download'
  | 'shl_link_create'
  | 'shl_access'
  | 'emergency_card_download';

export interface AuditEvent {
  userId: string | null;
  action: AuditAction;
  ip?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

export async function recordAudit(db: Db, event: AuditEvent): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: newId(),
      user_id: event.userId,
      action: event.action,
      ip: event.ip ?? null,
      detail: event.detail ? JSON.stringify(event.detail) : null,
      created_at: nowIso(),
    })
    .execute();
}
