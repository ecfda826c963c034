import type { Generated } from 'kysely';
import type { AppointmentValues } from '@kinchart/shared/appointments';
import type { ProfileFields, ProfileFlag } from '@kinchart/shared/profile';

// Table types for Kysely. Dialect-neutral storage conventions (docs/decisions/0002-dialect-neutral-schema.md):
// ids are UUID text made by the app, booleans are integers 0/1, instants are ISO-8601 UTC text,
// dates are YYYY-MM-DD text, height/weight are double precision.

/** 0 | 1, with a column default, so inserts may omit it. */
export type Flag = Generated<number>;
export type Counter = Generated<number>;

export interface UsersTable {
  id: string;
  email: string;
  username: string;
  password_hash: string;
  /** When the current email was proven by a link or the OpenID provider; null until then (migration 0016). */
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
  /** The account's IANA time zone; null on accounts made before migration 0022 (read as UTC). */
  time_zone: string | null;
  /** Reminder channels (issue 32): email and Web Push on by default; `minimal` leaves the medication's name out. */
  reminder_email: Flag;
  reminder_push: Flag;
  reminder_minimal: Flag;
}

/** Moves whenever the account's profiles or their lists change (migration 0003, triggers). */
export interface ProfileVersionsTable {
  user_id: string;
  version: number;
}

export interface SessionsTable {
  id: string; // SHA-256 of the token, hex
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string; // absolute lifetime end
  ip: string | null;
  user_agent: string | null;
  /** Random; what the session list shows and ends a session by (migration 0010). Never the token's hash. */
  public_id: string;
  /** When this session last proved the password: login or re-authentication (migration 0010). */
  authenticated_at: string | null;
}

export interface LoginFailuresTable {
  id: string;
  email: string;
  /** The client's address as counted (lib/client-address.ts clientAddressKey: IPv6 by /64). */
  ip: string;
  /** 'password', 'second_factor' or 'passkey' (migration 0017). */
  factor: Generated<string>;
  created_at: string;
}

/**
 * A profile's own fields are packages/shared's (profileFieldsSchema), one column each, its flags as
 * 0/1: height in cm, weight in kg; a pet's fields (migration 0020, docs/decisions/0037) null for a person.
 */
type ProfileColumns = { [K in keyof ProfileFields]-?: K extends ProfileFlag ? Flag : ProfileFields[K] };

export interface ProfilesTable extends ProfileColumns {
  id: string;
  user_id: string;
  is_self: Flag;
  relationship: string | null;
  is_pet: Flag;
  created_at: string;
  updated_at: string;
  /** The person's IANA time zone (migration 0022); null: the owner account's. */
  time_zone: string | null;
}

export interface EmergencyContactsTable {
  id: string;
  user_id: string;
  profile_id: string;
  name: string;
  relationship: string | null;
  phone_number: string | null;
  email: string | null;
  is_primary: Flag;
  has_medical_power: Flag;
  position: Counter;
  created_at: string;
}

export interface HealthcareProvidersTable {
  id: string;
  user_id: string;
  profile_id: string;
  provider_name: string;
  specialty: string | null;
  facility: string | null;
  phone_number: string | null;
  email: string | null;
  address: string | null;
  is_primary: Flag;
  notes: string | null;
  position: Counter;
  created_at: string;
}

export interface MedicationsTable {
  id: string;
  user_id: string;
  profile_id: string;
  medication_name: string | null;
  dosage: string | null;
  frequency: string | null;
  purpose: string | null;
  start_date: string | null;
  end_date: string | null;
  is_current: Flag;
  position: Counter;
  created_at: string;
  updated_at: string;
  codings: string | null; // JSON [{ system, code, display }] an import brought (DESIGN §12)
}

export interface EmergencySharesTable {
  id: string;
  user_id: string;
  profile_id: string; // unique: one code per person
  kind: 'self' | 'family';
  share_id: string; // unique, 43-char base64url
  pin_hash: string;
  is_active: Flag;
  is_disabled: Flag; // set after too many wrong PINs; re-activation clears it
  failed_streak: Counter; // wrong PINs in a row
  failed_total: Counter; // wrong PINs since the PIN was set or the code re-activated
  locked_until: string | null;
  essentials_without_pin: Flag; // DESIGN §7: show the essentials without the PIN (migration 0005)
  created_at: string;
  updated_at: string;
}

export interface PinAttemptsTable {
  id: string;
  ip: string;
  created_at: string;
}

/** Sign-ups per client address (DESIGN §5), counted like PIN attempts. */
export interface SignupAttemptsTable {
  id: string;
  ip: string;
  created_at: string;
}

/** One row per limited subject; its lock serialises that subject's reservations (migration 0004). */
export interface LimitLocksTable {
  key: string;
  touched_at: string;
}

export interface MedicalFilesTable {
  id: string;
  user_id: string;
  profile_id: string | null;
  display_name: string;
  original_name: string;
  file_type: string; // sniffed MIME type
  size: number;
  storage_key: string;
  wrapped_key: string; // base64 data key wrapped by the master key
  record_date: string | null;
  provider_name: string | null;
  visit_location: string | null;
  visit_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface FileShareLinksTable {
  id: string;
  user_id: string;
  token_hash: string;
  file_ids: string; // JSON array of medical_files ids
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

/** An appointment's own fields are packages/shared's list (APPOINTMENT_FIELDS), one column each; these are whose it is and its bookkeeping. */
export interface AppointmentsTable extends AppointmentValues {
  id: string;
  user_id: string;
  uid: string; // stable iCalendar UID
  profile_id: string | null; // the person (DESIGN §4); set on every new row, null only if the person vanished
  created_at: string;
  /** JSON [minutes, …] before the start to remind (migration 0022); null: the default [1440, 120]. */
  reminder_minutes: string | null;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: string;
  level: 'error' | 'warning' | 'info';
  title: string;
  data: string | null; // JSON text
  is_read: Flag;
  is_hidden: Flag;
  dedupe_key: string | null; // unique when set: makes periodic jobs and rate-limited notices idempotent
  created_at: string;
}

export interface AuditEventsTable {
  id: string;
  user_id: string | null; // no foreign key: the record of an account deletion outlives the account
  action: string;
  ip: string | null;
  detail: string | null; // JSON text; never health data
  profile_id: string | null; // the person the event concerns, for the person's access history (DESIGN §11)
  actor_id: string | null; // who acted, when it is not the account holder (access through a share)
  created_at: string;
}

export interface PersonSharesTable {
  id: string;
  profile_id: string;
  owner_id: string;
  created_by: string | null;
  holder_id: string | null; // set when the invitation is accepted
  role: 'manager' | 'editor' | 'viewer';
  label_email: string | null;
  token_hash: string | null; // SHA-256 of the invitation token; null once used
  invite_expires_at: string;
  expires_at: string | null; // as the owner gave it (a date or an instant)
  ends_at: string | null; // the instant the share ends
  accepted_at: string | null;
  revoked_at: string | null;
  created_at: string;
  signup_claimed_at: string | null; // SIGNUP_MODE=invite: the one sign-up this invitation admitted (migration 0011)
}

/** A single-use password reset link (migration 0011, docs/decisions/0025). */
export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string; // SHA-256 of the link's token, hex
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The address the link was emailed to; null for an operator's link (migration 0016). */
  sent_to: string | null;
}

/** Password reset requests per client address and per requested email, for their limits. */
export interface PasswordResetRequestsTable {
  id: string;
  email: string;
  ip: string;
  created_at: string;
}

export interface ShlLinksTable {
  id: string;
  user_id: string;
  emergency_share_id: string; // unique: one SMART Health Link per emergency code
  manifest_id: string; // unique, 43-char base64url (256 bits)
  created_at: string;
  failed_passcodes: Counter; // wrong passcodes over the link's lifetime (never reset)
  disabled_at: string | null; // set when the passcode budget is spent: the link answers 404 for good
}

/** A manifest file answered by `location` (STU1 `.files.location`): one GET within the hour. */
export interface ShlFileLocationsTable {
  id: string;
  user_id: string;
  shl_link_id: string;
  token_hash: string; // unique, SHA-256 hex of the URL's 43-char token
  jwe: string; // the file's compact JWE under the link's key
  expires_at: string;
  created_at: string;
}

/** What every clinical item carries (DESIGN §12). */
interface ClinicalRow {
  id: string;
  user_id: string;
  profile_id: string;
  notes: string | null;
  codings: Generated<string>; // JSON [{ system, code, display }]
  created_at: string;
  updated_at: string;
}

export interface ImmunizationsTable extends ClinicalRow {
  vaccine: string;
  date: string | null; // YYYY, YYYY-MM or YYYY-MM-DD
  dose_number: number | null;
  lot_number: string | null;
  site: string | null;
  performer: string | null;
}

export interface LabResultsTable extends ClinicalRow {
  name: string;
  category: 'laboratory' | 'vital-signs';
  loinc_code: string | null;
  value: number | null;
  value_text: string | null;
  unit: string | null;
  reference_low: number | null;
  reference_high: number | null;
  reference_range: string | null;
  interpretation: string | null;
  date: string | null;
  /** The file the result was read from and its page (migration 0027, docs/decisions/0052); null when typed or imported. */
  source_file_id: string | null;
  source_page: number | null;
}

export interface ConditionsTable extends ClinicalRow {
  name: string;
  status: string;
  onset_date: string | null;
  abatement_date: string | null;
}

export interface ProceduresTable extends ClinicalRow {
  name: string;
  status: string;
  performed_date: string | null;
  performer: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  profile_versions: ProfileVersionsTable;
  login_failures: LoginFailuresTable;
  profiles: ProfilesTable;
  person_shares: PersonSharesTable;
  emergency_contacts: EmergencyContactsTable;
  healthcare_providers: HealthcareProvidersTable;
  medications: MedicationsTable;
  emergency_shares: EmergencySharesTable;
  pin_attempts: PinAttemptsTable;
  signup_attempts: SignupAttemptsTable;
  limit_locks: LimitLocksTable;
  medical_files: MedicalFilesTable;
  file_share_links: FileShareLinksTable;
  appointments: AppointmentsTable;
  notifications: NotificationsTable;
  audit_events: AuditEventsTable;
  shl_links: ShlLinksTable;
  immunizations: ImmunizationsTable;
  lab_results: LabResultsTable;
  conditions: ConditionsTable;
  procedures: ProceduresTable;
  shl_file_locations: ShlFileLocationsTable;
  password_resets: PasswordResetsTable;
  password_reset_requests: PasswordResetRequestsTable;
}

// Second factors (migration 0012, docs/decisions/0026). Declared as a second part of `Database`
// (TypeScript merges the two) so tables added in parallel do not touch the same lines.
export interface TotpFactorsTable {
  id: string;
  user_id: string;
  /** The secret's data key, wrapped by the master key (storage/sealed-secret.ts). */
  wrapped_key: string;
  /** The RFC 6238 secret, sealed under the data key. */
  secret_sealed: string;
  created_at: string;
  /** Null while the set-up waits for its first code. */
  enabled_at: string | null;
  /** The last accepted time step: a code of this step or an earlier one is refused. */
  last_used_step: number | null;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string; // SHA-256, hex, of the normalised code
  created_at: string;
  used_at: string | null;
}

export interface PendingLoginsTable {
  id: string; // SHA-256 of the cookie's token, hex
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface Database {
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  pending_logins: PendingLoginsTable;
}

// Passkeys (migration 0013, docs/decisions/0027-passkeys.md).
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url of the WebAuthn credential id. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  counter: Generated<number>;
  /** JSON array of AuthenticatorTransport hints, or null. */
  transports: string | null;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface WebauthnChallengesTable {
  /** The challenge itself (base64url, 32 random bytes): it is sent in the clear and proves nothing alone. */
  id: string;
  purpose: 'register' | 'login' | 'second_factor' | 'reauth';
  user_id: string | null;
  session_id: string | null;
  pending_login_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface Database {
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
}

// Browsers an account has signed in from (migration 0015, docs/decisions/0028).
export interface KnownBrowsersTable {
  id: string;
  user_id: string;
  /** SHA-256, hex, of the browser cookie's random token. */
  token_hash: string;
  created_at: string;
  last_seen_at: string;
}

export interface Database {
  known_browsers: KnownBrowsersTable;
}

// Single sign-on with OpenID Connect (migration 0014, docs/decisions/0029), a third part of `Database`.
export interface OidcIdentitiesTable {
  id: string;
  user_id: string;
  /** The provider's issuer identifier, as its ID tokens carry it. */
  issuer: string;
  /** The provider's `sub`: with the issuer, the only stable name of its account (OpenID Connect Core 5.7). */
  subject: string;
  created_at: string;
  last_used_at: string | null;
}

export interface OidcRequestsTable {
  id: string; // SHA-256 of the `state`, hex
  /** SHA-256 of the token in the browser's `oidc` cookie. */
  browser_hash: string;
  purpose: 'login' | 'reauth';
  /** The PKCE code_verifier (RFC 7636); useful only with the code, and gone once used. */
  code_verifier: string;
  nonce: string;
  next: string | null;
  /** The session being re-authenticated (purpose reauth). */
  session_id: string | null;
  /** The row in oidc_attempts this start reserved; given back when it finishes. */
  attempt_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface OidcAttemptsTable {
  id: string;
  ip: string;
  created_at: string;
}

export interface Database {
  oidc_identities: OidcIdentitiesTable;
  oidc_requests: OidcRequestsTable;
  oidc_attempts: OidcAttemptsTable;
}

// Proving an email (migration 0016, docs/decisions/0030).
export interface EmailVerificationsTable {
  id: string;
  user_id: string;
  /** The address the link was sent to: it proves that address only. */
  email: string;
  /** SHA-256, hex, of the link's token. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A single sign-on waiting for the password of the unproven account its email names. */
export interface OidcLinkRequestsTable {
  id: string;
  /** SHA-256 of the token in the browser's `oidc` cookie. */
  browser_hash: string;
  user_id: string;
  issuer: string;
  subject: string;
  /** The email the provider verified, the account's email at the time. */
  email: string;
  next: string | null;
  created_at: string;
  expires_at: string;
}

export interface Database {
  email_verifications: EmailVerificationsTable;
  oidc_link_requests: OidcLinkRequestsTable;
}

// Emergency guessing and viewing limits per client address, and coalesced access alerts
// (migration 0019, docs/decisions/0033). A separate part of `Database`, like the ones above.
export interface EmergencyPinLocksTable {
  emergency_share_id: string;
  address: string; // client address key: IPv4, or an IPv6 /64
  failed_streak: Counter; // wrong PINs in a row from this address
  locked_until: string | null;
}

export interface EmergencyAccessAlertsTable {
  emergency_share_id: string;
  user_id: string; // the person told: the owner or a manager
  notification_id: string | null; // this window's notification, updated with the count
  window_started_at: string;
  views: Counter; // views in this window
  mailed_at: string | null; // the last access email
  unmailed: Counter; // views since that email, not yet emailed
}

export interface EssentialsViewsTable {
  id: string;
  ip: string; // client address key
  created_at: string;
}

export interface Database {
  emergency_pin_locks: EmergencyPinLocksTable;
  emergency_access_alerts: EmergencyAccessAlertsTable;
  essentials_views: EssentialsViewsTable;
}

// Medication schedules and the dose log (migration 0022, issue 32, DESIGN §13). Times are local
// to the person's zone; a scheduled dose that nobody logged has no row.
export interface MedicationSchedulesTable {
  medication_id: string;
  user_id: string; // the person's owner
  profile_id: string;
  times: string; // JSON ["08:00", …], sorted
  days: string; // JSON ISO weekdays [1..7], sorted
  start_date: string; // YYYY-MM-DD
  end_date: string | null;
  as_needed: Flag;
  dose_units: number;
  quantity_on_hand: number | null;
  refill_remind_days: number | null;
  reminders: Flag;
  created_at: string;
  updated_at: string;
}

export interface DoseLogTable {
  id: string; // the dose id: doseIdOf(medication, local time) for a scheduled dose, random for an as-needed one
  user_id: string; // the person's owner
  profile_id: string;
  medication_id: string;
  scheduled_local: string; // "YYYY-MM-DDTHH:MM" in the person's zone
  scheduled_at: string; // the instant, ISO 8601 UTC
  as_needed: Flag;
  status: 'taken' | 'skipped';
  taken_at: string | null;
  logged_at: string;
  logged_by: string | null; // user id
  units_taken: number | null; // what taking it removed from quantity_on_hand
}

export interface Database {
  medication_schedules: MedicationSchedulesTable;
  dose_log: DoseLogTable;
}

// Reminders (migration 0023, issue 32, DESIGN §13, docs/decisions/0044).
export interface ReminderSettingsTable {
  user_id: string; // the recipient
  profile_id: string;
  dose_reminders: number;
  missed_dose_alerts: number;
  appointment_reminders: number;
  updated_at: string;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string; // an https URL on an allowed host
  p256dh: string;
  auth: string;
  created_at: string;
  updated_at: string;
  /** Migration 0030: the session (sessions.id) that subscribed or last re-subscribed; ending it on purpose removes the row. */
  session_id: string | null;
  /** Migration 0030: the browser in plain words (describeDevice), e.g. "Chrome on Android"; null before 0030. */
  label: string | null;
}

export interface ReminderOccurrencesTable {
  key: string; // "dose:<dose id>", "missed:<dose id>", "refill:…", "appointment:…", "snooze:<id>"
  kind: string;
  due_at: string; // ISO 8601 UTC
  state: 'pending' | 'sent' | 'late' | 'missed';
  user_id: string | null; // a snooze's one recipient
  data: string | null; // a snooze's JSON
  claimed_at: string | null;
}

export interface ReminderDeliveriesTable {
  occurrence_key: string;
  user_id: string;
  channel: 'in_app' | 'email' | 'push';
  delivered_at: string;
}

export interface PushActionTokensTable {
  token_hash: string; // SHA-256 of the token, base64url
  user_id: string;
  profile_id: string;
  dose_id: string;
  expires_at: string;
  used_at: string | null;
  /** Migration 0030: the subscription the token was pushed to (removed with it); null before 0030. */
  subscription_id: string | null;
}

export interface Database {
  reminder_settings: ReminderSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  reminder_occurrences: ReminderOccurrencesTable;
  reminder_deliveries: ReminderDeliveriesTable;
  push_action_tokens: PushActionTokensTable;
}

// Private calendar feeds (migration 0024, issue 32, docs/decisions/0045): only the token's hash is kept.
export interface CalendarFeedsTable {
  id: string;
  user_id: string; // the account whose access the feed reads with
  person_id: string | null; // null: everyone the account can see
  include_medications: Flag;
  minimal: Flag;
  token_hash: string; // SHA-256 of the token, hex
  created_at: string;
  last_read_at: string | null;
  /** Migration 0029: 1 from an import (a token nobody knows) until the account renews its address; 0 for a feed made in Settings. */
  restored: Flag;
}

export interface Database {
  calendar_feeds: CalendarFeedsTable;
}

// The text read from files (migration 0025, issue 33, docs/decisions/0047). Health data: deleted with
// its file, never logged, never in the bucket.
export interface FileTextJobsTable {
  file_id: string;
  user_id: string;
  status: 'pending' | 'processing' | 'done' | 'failed' | 'unsupported';
  pages: number | null;
  /** Why reading failed or is not done, as the record card says it; null otherwise. */
  reason: string | null;
  attempts: Counter;
  /** While processing: when the claim runs out and another worker may take the job. */
  lease_until: string | null;
  worker_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface FileTextPagesTable {
  file_id: string;
  page: number; // from 1
  text: string;
}

export interface FileSuggestionsTable {
  file_id: string;
  record_date: string | null;
  provider_name: string | null;
  visit_reason: string | null;
  created_at: string;
}

export interface UsersTable {
  /** JSON list of document language codes (packages/shared search.ts); null: never chosen (English). */
  document_languages: string | null;
  /** Issue 35 (migration 0028): the account's language (packages/shared i18n.ts); null: never chosen. */
  language: string | null;
  /** 'imperial' | 'metric'; null: imperial (the SPEC's). */
  units: string | null;
}

export interface Database {
  file_text_jobs: FileTextJobsTable;
  file_text_pages: FileTextPagesTable;
  file_suggestions: FileSuggestionsTable;
}

// One search over everything (migration 0026, issue 33, docs/decisions/0048): one entry per
// searchable thing, kept by triggers on the source tables; SQLite indexes it in the FTS5 table
// search_fts, PostgreSQL in the generated column `tsv`.
export interface SearchEntriesTable {
  id: Generated<number>;
  kind: string; // a SEARCH_KINDS value
  ref_id: string; // the thing's id (a person's id for `allergy`)
  user_id: string; // the person's owner
  profile_id: string | null;
  scope: string; // "p<person>u<owner>", dashes dropped: the token access is checked by
  title: string;
  heading: string; // short fields, ranked above the body
  body: string; // a file's pages joined by '\f'
  date: string | null;
  format: string | null; // a file's MIME type
}

export interface Database {
  search_entries: SearchEntriesTable;
}

// Allergies as entries (migration 0027, issue 34, docs/decisions/0053): the profile's
// allergy_details text is derived from them, in `position` order.
export interface AllergiesTable {
  id: string;
  user_id: string;
  profile_id: string;
  substance: string;
  reactions: string; // JSON list of reaction texts
  severity: 'mild' | 'moderate' | 'severe' | null;
  criticality: 'low' | 'high' | 'unable-to-assess' | null;
  codings: string; // JSON [{ system, code, display }]
  position: number;
  created_at: string;
  updated_at: string;
}

export interface Database {
  allergies: AllergiesTable;
}
