import type { Db } from '../db/database';
import { newId, nowIso } from '../lib/ids';
import type { AuditRow } from './audit.repository';
import { insertAuditRows } from './audit.repository';

// DESIGN §5: the audit trail. `detail` never carries health data — only ids and kinds.
export type AuditAction =
  | 'signup'
  | 'login'
  | 'logout'
  /** The password confirmed again for an action that needs a recent one (docs/decisions/0024). */
  | 'reauthenticate'
  | 'password_change'
  /** A password reset link was issued (detail.via: email or operator); never the token. */
  | 'password_reset_request'
  /** A password reset link set a new password; every session of the account ended. */
  | 'password_reset'
  | 'email_change'
  /** The account's current email was proven (detail.via: link, oidc or password_reset; docs/decisions/0030). */
  | 'email_verified'
  | 'account_delete'
  /** Second factors (docs/decisions/0026): never the secret or a code, only that it happened. */
  | 'mfa_totp_enable'
  | 'mfa_totp_disable'
  | 'mfa_recovery_codes_new'
  /** detail.left: how many unused codes remain. */
  | 'mfa_recovery_code_use'
  /** Passkeys (docs/decisions/0027): detail.passkey_id only. */
  | 'mfa_passkey_add'
  | 'mfa_passkey_remove'
  /**
   * An identity provider's account was linked to this one by its verified email (docs/decisions/0029);
   * detail.confirmed = password when the account's unproven email asked for its password (0030).
   */
  | 'oidc_link'
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
  /** A SMART Health Link's wrong-passcode budget ran out: it answers 404 for good (docs/decisions/0020). */
  | 'shl_link_disabled'
  | 'emergency_card_download'
  | 'person_share_create'
  | 'person_share_accept'
  | 'person_share_revoke'
  | 'person_share_leave'
  /** A share's (or invitation's) role changed in place; detail.from, detail.to (docs/decisions/0032). */
  | 'person_share_role'
  /** A read through a share (DESIGN §11); detail.what names the route. */
  | 'shared_read'
  /** A write through a share. */
  | 'shared_write'
  /**
   * A logged dose changed its status or was undone (issue 32: a change of mind is audited);
   * detail.dose (the dose id), detail.from and detail.to ("taken", "skipped" or "undone").
   */
  | 'dose_log_change';

export interface AuditEvent {
  userId: string | null;
  action: AuditAction;
  ip?: string | null;
  /** The person the event concerns (their access history lists it). */
  profileId?: string | null;
  /** Who acted, when not the account holder `userId` (a share's holder). */
  actorId?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

const rowOf = (event: AuditEvent, createdAt: string): AuditRow => ({
  id: newId(),
  user_id: event.userId,
  action: event.action,
  ip: event.ip ?? null,
  profile_id: event.profileId ?? null,
  actor_id: event.actorId ?? null,
  detail: event.detail ? JSON.stringify(event.detail) : null,
  created_at: createdAt,
});

export async function recordAudit(db: Db, event: AuditEvent): Promise<void> {
  await insertAuditRows(db, [rowOf(event, nowIso())]);
}

/** Several events in one statement (a list read through several shares). */
export async function recordAudits(db: Db, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  const now = nowIso();
  await insertAuditRows(
    db,
    events.map((e) => rowOf(e, now)),
  );
}
