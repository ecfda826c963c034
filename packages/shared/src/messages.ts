// Issue 35 (docs/decisions/0054): every message the server sends to a person — each answer's
// `message`, error or success — and every message the shared zod schemas write, under a stable
// code. The API keeps its English `message` (the SPEC's texts, byte for byte) and adds `code` and,
// when the text has placeholders, `params`; the web shows the code's text from its catalog
// (ids `server.<code>`, apps/web/src/i18n/server-messages.generated.ts is written from this table).
//
// Each text is an ICU MessageFormat template: `{name}` is a value filled in at run time, `'{'` a
// literal brace. A code never changes meaning; a new text gets a new code.

/** code → English text (ICU template). */
export const MESSAGES = {
  // ---- Answers of the server (errors and successes) ----
  new_confirmation_link_on_its_way: 'A new confirmation link is on its way to your email address.',
  clinical_full_conditions: 'A person can have at most {max} conditions.',
  clinical_full_immunizations: 'A person can have at most {max} immunizations.',
  clinical_full_lab_results: 'A person can have at most {max} lab results.',
  clinical_full_procedures: 'A person can have at most {max} procedures.',
  shares_full: 'A person can have at most {max} shares and pending invitations. Revoke one to invite someone else.',
  access_revoked: 'Access revoked',
  account_created_successfully: 'Account created successfully!',
  account_deleted_successfully: 'Account deleted successfully',
  account_not_found: 'Account not found',
  activate_qr_code_share_it_as: 'Activate the QR code to share it as a SMART Health Link',
  all_notifications_marked_as_read: 'All notifications marked as read',
  allergies_allergy_details_would_pass: 'Allergies: the allergy details would pass 5000 characters',
  allergy_added: 'Allergy added',
  allergy_deleted: 'Allergy deleted',
  allergy_not_found: 'Allergy not found',
  allergy_updated: 'Allergy updated',
  account_can_have_at_most: 'An account can have at most {max} passkeys. Remove one to add another.',
  account_with_email_already_exists: 'An account with this email already exists',
  appointment_added_successfully: 'Appointment added successfully!',
  appointment_deleted_successfully: 'Appointment deleted successfully',
  appointment_not_found: 'Appointment not found',
  appointment_updated_successfully: 'Appointment updated successfully!',
  at_most_as_needed_doses: 'At most 50 as-needed doses of one medication can be logged a day.',
  bad_request: 'Bad request',
  calendar_feed_not_found: 'Calendar feed not found',
  calendar_feed_revoked: 'Calendar feed revoked',
  choose_file_import: 'Choose a file to import.',
  condition_added_successfully: 'Condition added successfully!',
  condition_deleted_successfully: 'Condition deleted successfully',
  condition_not_found: 'Condition not found',
  condition_updated_successfully: 'Condition updated successfully!',
  cross_origin_request_refused: 'Cross-origin request refused',
  dose_log_removed: 'Dose log removed',
  dose_logged_as_taken: 'Dose logged as taken',
  dose_not_found: 'Dose not found',
  email_updated_successfully: 'Email updated successfully',
  emergency_contact_added_successfully: 'Emergency contact added successfully!',
  emergency_contact_not_found: 'Emergency contact not found',
  emergency_contact_removed_successfully: 'Emergency contact removed successfully!',
  emergency_contact_updated_successfully: 'Emergency contact updated successfully!',
  enter_something_search_for: 'Enter something to search for.',
  fhir_bundle_not_valid: 'FHIR Bundle is not valid: {detail}',
  family_member_added_successfully: 'Family member added successfully!',
  family_member_deleted_successfully: 'Family member deleted successfully',
  family_member_not_found: 'Family member not found',
  family_member_updated_successfully: 'Family member updated successfully!',
  file_deleted_successfully: 'File deleted successfully',
  file_larger_than_mb: 'File is larger than {mb} MB',
  file_not_found: 'File not found',
  healthcare_provider_added_successfully: 'Healthcare provider added successfully!',
  healthcare_provider_not_found: 'Healthcare provider not found',
  healthcare_provider_removed_successfully: 'Healthcare provider removed successfully!',
  healthcare_provider_updated_successfully: 'Healthcare provider updated successfully!',
  if_account_uses_email_link_reset: 'If an account uses this email, a link to reset its password is on its way.',
  immunization_added_successfully: 'Immunization added successfully!',
  immunization_deleted_successfully: 'Immunization deleted successfully',
  immunization_not_found: 'Immunization not found',
  immunization_updated_successfully: 'Immunization updated successfully!',
  import_complete: 'Import complete.',
  invalid_pin: 'Invalid PIN',
  invalid_authentication_code: 'Invalid authentication code',
  invalid_email_or_password: 'Invalid email or password',
  invalid_passcode: 'Invalid passcode',
  invalid_recovery_code: 'Invalid recovery code',
  invalid_request: 'Invalid request',
  invalid_upload_fields: 'Invalid upload fields',
  lab_result_added_successfully: 'Lab result added successfully!',
  lab_result_deleted_successfully: 'Lab result deleted successfully',
  lab_result_not_found: 'Lab result not found',
  lab_result_updated_successfully: 'Lab result updated successfully!',
  logged_out_successfully: 'Logged out successfully',
  login_successful: 'Login successful.',
  malformed_json_in_request_body: 'Malformed JSON in request body',
  malformed_url: 'Malformed URL',
  malformed_form_field: 'Malformed form field',
  malformed_multipart_body: 'Malformed multipart body',
  medication_added_successfully: 'Medication added successfully!',
  medication_not_found: 'Medication not found',
  medication_removed_successfully: 'Medication removed successfully!',
  medication_updated_successfully: 'Medication updated successfully!',
  name_file_delete: 'Name the file to delete',
  no_smart_health_link_made_for: 'No SMART Health Link has been made for this code yet',
  no_file_was_uploaded: 'No file was uploaded',
  not_authenticated: 'Not authenticated',
  not_found: 'Not found',
  notification_hidden: 'Notification hidden',
  notification_not_found: 'Notification not found',
  only_owner_person_can_do: 'Only the owner of this person can do this',
  only_owner_or_manager_person_can: 'Only the owner or a manager of this person can do this',
  pin_must_digits: 'PIN must be 4 digits',
  pin_updated_successfully: 'PIN updated successfully',
  passkey_added: 'Passkey added',
  passkey_confirmed: 'Passkey confirmed',
  passkey_not_found: 'Passkey not found',
  passkey_removed: 'Passkey removed',
  passkey_renamed: 'Passkey renamed',
  passkeys_need_server_reached_by_domain: 'Passkeys need this server to be reached by a domain name (PUBLIC_URL), not an IP address.',
  password_confirmed: 'Password confirmed',
  password_incorrect: 'Password is incorrect',
  password_updated_successfully: 'Password updated successfully',
  person_not_found: 'Person not found',
  confirm_password_continue: 'Please confirm your password to continue.',
  procedure_added_successfully: 'Procedure added successfully!',
  procedure_deleted_successfully: 'Procedure deleted successfully',
  procedure_not_found: 'Procedure not found',
  procedure_updated_successfully: 'Procedure updated successfully!',
  profile_not_found: 'Profile not found',
  profile_updated_successfully: 'Profile updated successfully!',
  push_subscription_not_found: 'Push subscription not found',
  push_subscription_removed: 'Push subscription removed',
  qr_code_not_set_up: 'QR code has not been set up',
  qr_code_not_found_or_inactive: 'QR code not found or inactive',
  qr_code_set_up_successfully: 'QR code set up successfully',
  reminding_you_again_in_minutes: 'Reminding you again in {minutes} minutes',
  schedule_not_found: 'Schedule not found',
  schedule_removed: 'Schedule removed',
  send_one_file_at_time: 'Send one file at a time',
  send_one_file_in_file_field: 'Send one file, in the "file" field',
  send_file_as_multipart_form_data: 'Send the file as multipart/form-data',
  session_ended: 'Session ended',
  session_not_found: 'Session not found',
  share_link_not_found: 'Share link not found',
  share_link_revoked: 'Share link revoked',
  share_not_found: 'Share not found',
  sign_up_by_invitation_only: 'Sign-up is by invitation only.',
  sign_up_closed_on_server: 'Sign-up is closed on this server.',
  signed_out_other_sessions: 'Signed out of {count} other sessions',
  single_sign_on_not_available_right: 'Single sign-on is not available right now. Please try again later, or log in with your password.',
  single_sign_on_not_set_up: 'Single sign-on is not set up on this server.',
  something_went_wrong_try_again: 'Something went wrong. Please try again.',
  start_set_up_again_there_no: 'Start the set-up again: there is no authenticator waiting for a code.',
  test_notification_sent: 'Test notification sent',
  text_must_not_contain_nul_characters: 'Text must not contain NUL characters or unpaired surrogates',
  thank_you_email_address_confirmed: 'Thank you! Your email address is confirmed.',
  that_code_did_not_match_check: 'That code did not match. Check the time on your phone and try the newest code.',
  that_not_code_s_pin_type: 'That is not this code’s PIN. Type the PIN you chose for it, or leave “Print the PIN” off.',
  that_passkey_was_not_accepted_try: 'That passkey was not accepted. Please try again or use another way to sign in.',
  c_cda_document_could_not_converted: 'The C-CDA document could not be converted: it is not a complete ClinicalDocument.',
  c_cda_document_could_not_read: 'The C-CDA document could not be read.',
  c_cda_document_names_no_patient: 'The C-CDA document names no patient (recordTarget).',
  pin_for_code_was_turned_off:
    'The PIN for this code was turned off after too many wrong tries. Use the information shown here and call your local emergency number.',
  xml_document_holds_nul_character_or: 'The XML document holds a NUL character or a broken Unicode sequence.',
  xml_document_not_utf_text: 'The XML document is not UTF-8 text.',
  xml_nests_deeper_than_elements: 'The XML nests deeper than {max} elements.',
  file_declares_doctype_or_entity_documents: 'The file declares a DOCTYPE or an ENTITY: documents with a DTD are not accepted.',
  file_empty: 'The file is empty',
  import_file_empty: 'The file is empty.',
  file_larger_than_mb_most_import: 'The file is larger than {mb} MB, the most an import may be.',
  file_not_well_formed_xml: 'The file is not well-formed XML: {detail}.',
  passkey_could_not_added_try_again: 'The passkey could not be added. Please try again.',
  push_service_did_not_take_notification: 'The push service did not take the notification. Please try again later.',
  request_body_not_valid_utf: 'The request body is not valid UTF-8',
  upload_was_interrupted: 'The upload was interrupted',
  zip_expands_more_than_mb_that: 'The zip expands to more than {mb} MB; that is more than an import may hold.',
  zip_expands_times_in_total_kinchart: 'The zip expands {ratio} times in total; Kinchart refuses zip bombs.',
  zip_file_damaged_or_incomplete: 'The zip file is damaged or incomplete.',
  zip_holds_entries_import_may_hold: 'The zip holds {count} entries; an import may hold at most {max}.',
  zip_password_protected_export_it_again: 'The zip is password-protected; export it again without a password.',
  there_no_second_factor_on_so: 'There is no second factor on, so there are no recovery codes to replace.',
  smart_health_link_was_disabled_after: 'This SMART Health Link was disabled after too many wrong passcodes. Make a new one.',
  xml_file_not_c_cda_document: 'This XML file is not a C-CDA document: its root is not a ClinicalDocument in the urn:hl7-org:v3 namespace.',
  code_already_used_wait_for_next: 'This code has already been used. Please wait for the next code from your authenticator app.',
  confirmation_link_already_used_if_settings:
    'This confirmation link has already been used. If Settings still says your email is not confirmed, ask for a new link there.',
  confirmation_link_expired_sign_in_and: 'This confirmation link has expired. Please sign in and ask for a new one in Settings.',
  confirmation_link_not_valid_sign_in: 'This confirmation link is not valid. Please sign in and ask for a new one in Settings.',
  confirmation_link_was_sent_email_address:
    'This confirmation link was sent to an email address the account no longer uses. Please ask for a new one in Settings.',
  export_format_version_newer_than_kinchart:
    'This export is format version {version}, newer than this Kinchart can read (version 3). Update Kinchart and import it again.',
  export_format_version_kinchart_reads_versions: 'This export is format version {version}; this Kinchart reads versions {oldest} to 3.',
  file_no_suggestion: 'This file has no suggestion',
  file_neither_kinchart_export_zip_fhir:
    'This file is neither a Kinchart export (.zip), a FHIR R4 Bundle (.json) nor a C-CDA document (.xml).',
  file_type_not_supported_accepted_types: 'This file type is not supported. Accepted types: {types}.',
  invitation_expired_or_no_longer_available: 'This invitation has expired or is no longer available',
  kinchart_json_on_its_own_import: 'This is kinchart.json on its own. Import the whole export zip: it also holds the files.',
  link_expired_or_no_longer_available: 'This link has expired or is no longer available',
  passkey_already_registered: 'This passkey is already registered.',
  password_too_common_choose_less_predictable: 'This password is too common. Please choose a less predictable one.',
  password_reset_link_already_used_ask: 'This password reset link has already been used. Please ask for a new one.',
  password_reset_link_expired_ask_for: 'This password reset link has expired. Please ask for a new one.',
  password_reset_link_not_valid_ask: 'This password reset link is not valid. Please ask for a new one.',
  reminder_expired_or_was_already_answered: 'This reminder has expired or was already answered',
  server_does_not_answer_for_that: 'This server does not answer for that host name. Use the address in PUBLIC_URL.',
  server_does_not_send_email_so: 'This server does not send email, so it cannot send a confirmation link.',
  sign_in_expired_sign_in_with: 'This sign-in has expired. Please sign in with your identity provider again.',
  zip_not_kinchart_export_kinchart_json: 'This zip is not a Kinchart export: kinchart.json is missing.',
  too_many_pin_attempts_from_network: 'Too many PIN attempts from this network. Please try again later.',
  too_many_confirmation_emails_try_again: 'Too many confirmation emails. Please try again in an hour.',
  too_many_failed_login_attempts_try: 'Too many failed login attempts. Please try again in {minutes} minutes.',
  too_many_form_fields: 'Too many form fields',
  pin_locked_minute: 'Too many incorrect PINs. Please try again in {minutes} minute.',
  pin_locked_minutes: 'Too many incorrect PINs. Please try again in {minutes} minutes.',
  too_many_password_reset_requests_try: 'Too many password reset requests. Please try again later.',
  too_many_requests_slow_down_and: 'Too many requests. Please slow down and try again shortly.',
  too_many_sign_in_attempts_try: 'Too many sign-in attempts. Please try again in {minutes} minutes.',
  too_many_sign_ups_from_address: 'Too many sign-ups from this address. Please try again later.',
  views_limited_minute: 'Too many views from this network. Please try again in {minutes} minute.',
  views_limited_minutes: 'Too many views from this network. Please try again in {minutes} minutes.',
  two_factor_authentication_already_on_turn: 'Two-factor authentication is already on. Turn it off first to set up another authenticator.',
  two_factor_authentication_off: 'Two-factor authentication is off',
  unsupported_content_type_send_application_json: 'Unsupported content type: send application/json',
  you_already_own_person: 'You already own this person',
  you_can_have_at_most: 'You can have at most {max} calendar feeds',
  you_cannot_give_role_above_own: 'You cannot give a role above your own',
  you_no_longer_have_access_person: 'You no longer have access to this person',
  access_person_view_only: 'Your access to this person is view only',
  email_address_already_confirmed: 'Your email address is already confirmed.',
  own_access_ends_at_choose_end: 'Your own access ends at {until}: choose an end date no later than that',
  own_access_lasts_through_choose_end: 'Your own access lasts through {until}: choose an end date no later than that',
  password_reset_log_in_with_new: 'Your password has been reset. Please log in with your new password.',
  cursor_not_one_search_gave: 'cursor is not one this search gave',
  end_date_must_not_before_start: 'end_date: must not be before start_date',
  endpoint_must_https_url_browser_push: 'endpoint: must be an https URL of a browser push service',
  invalid: 'is invalid',
  keys_auth_must_bytes_base64url: 'keys.auth: must be 16 bytes, base64url',
  keys_p256dh_must_p_public: 'keys.p256dh: must be a P-256 public key (65 bytes, base64url)',
  kinchart_json_does_not_say_which: 'kinchart.json does not say which format version it is.',
  kinchart_json_larger_than_mb: 'kinchart.json is larger than {mb} MB.',
  kinchart_json_not_kinchart_export_its: 'kinchart.json is not a Kinchart export (its format is not "kinchart-export").',
  kinchart_json_lists_which_not_in: 'kinchart.json lists {file}, which is not in the zip.',
  results_must_loinc_code_table_or: 'results.{row}.{field}: must be a LOINC code of the table or null',
  results_must_at_most_file_s: "results.{row}.{field}: must be at most {max}, the file's pages",
  results_must_not_above_reference_high: 'results.{row}.{field}: must not be above reference_high',
  must_at_most_days_after: 'to: must be at most {max} days after from',
  must_not_before_from: 'to: must not be before from',
  tz_must_iana_time_zone_such: 'tz must be an IANA time zone such as Europe/London',
  appears_twice_in_zip: '{file} appears twice in the zip.',
  expands_times_kinchart_refuses_zip_bombs: '{file} expands {ratio} times; Kinchart refuses zip bombs.',
  holds_text_with_nul_character_or: '{what} holds text with a NUL character or a broken Unicode sequence.',
  larger_than_mb_most_file_may: '{file} is larger than {mb} MB, the most a file may be.',
  not_utf_text: '{what} is not UTF-8 text.',
  not_valid_json: '{what} is not valid JSON.',
  not_valid: '{what} is not valid.',
  too_long: '{field} is too long',
  bytes_but_kinchart_json_says: '{file} is {size} bytes, but kinchart.json says {listed}.',
  may_at_most_mb: '{what} may be at most {mb} MB.',
  field_must_be: '{field} must be {expected}',
  zip_entry_damaged: '{file}: The zip file is damaged or incomplete.',
  field_is_invalid_in: '{field}: is invalid ({part})',
  field_is_invalid: '{field}: is invalid',
  zip_uses_compression_method_kinchart_cannot: '{file}: this zip uses a compression method Kinchart cannot read.',
  storage_quota_file:
    'Storage quota of {mb} MB reached: this file needs {size}, and {free} is free. Delete files you no longer need to make room.',
  storage_quota_import:
    "Storage quota of {mb} MB reached: this import's files need {size}, and {free} is free. Delete files you no longer need to make room.",
  list_full_emergency_contacts: 'A profile can have at most {max} emergency contacts.',
  list_full_healthcare_providers: 'A profile can have at most {max} healthcare providers.',
  list_full_medications: 'A profile can have at most {max} medications.',
  import_over_cap_member_emergency_contacts: 'This import would give a family member more than {max} emergency contacts.',
  import_over_cap_emergency_contacts: 'This import would give {person} more than {max} emergency contacts.',
  import_over_cap_member_healthcare_providers: 'This import would give a family member more than {max} healthcare providers.',
  import_over_cap_healthcare_providers: 'This import would give {person} more than {max} healthcare providers.',
  import_over_cap_member_medications: 'This import would give a family member more than {max} medications.',
  import_over_cap_medications: 'This import would give {person} more than {max} medications.',
  import_over_cap_member_conditions: 'This import would give a family member more than {max} conditions.',
  import_over_cap_conditions: 'This import would give {person} more than {max} conditions.',
  import_over_cap_member_immunizations: 'This import would give a family member more than {max} immunizations.',
  import_over_cap_immunizations: 'This import would give {person} more than {max} immunizations.',
  import_over_cap_member_lab_results: 'This import would give a family member more than {max} lab results.',
  import_over_cap_lab_results: 'This import would give {person} more than {max} lab results.',
  import_over_cap_member_procedures: 'This import would give a family member more than {max} procedures.',
  import_over_cap_procedures: 'This import would give {person} more than {max} procedures.',
  request_body_json_object: 'Request body must be a JSON object',
  request_part_json_object: 'Request {part} must be a JSON object',
  request_part_must_be: 'Request {part} must be {expected}',
  signed_out_one_other_session: 'Signed out of 1 other session',
  request_error: '{detail}',
  unknown: '{detail}',
  reauth_limited: 'Too many incorrect passwords. You have been signed out; please sign in again in 15 minutes.',
  second_step_stopped: 'Too many wrong codes. For your safety, sign in again with your password in 15 minutes.',
  login_expired: 'Your sign-in has expired. Please log in again.',
  request_body_too_large: 'Request body is too large',
  current_password_incorrect: 'Current password is incorrect',
  passkey_could_not_confirm: 'That passkey could not confirm it is you. Please try again.',
  zip_unsafe_file_name: 'The zip file is damaged or incomplete. It holds an unsafe file name.',
  field_problem: '{field}: {problem}',
  field_problem_in: '{field}: {problem} ({part})',
  // ---- Messages of the shared zod schemas (400s and form fields) ----
  search_may_at_most_characters: 'A search may be at most {max} characters.',
  appointment_date_required: 'Appointment date is required',
  blood_type_must_one: 'Blood type must be one of {options}',
  category_must_one: 'Category must be one of {options}',
  current_password_required: 'Current password is required',
  date_birth_cannot_in_future: 'Date of birth cannot be in the future',
  date_birth_required: 'Date of birth is required',
  dose_number_must_whole_number: 'Dose number must be a whole number',
  dose_number_must_at_least: 'Dose number must be at least 1',
  dose_number_must_at_most: 'Dose number must be at most {max}',
  email_required: 'Email is required',
  email_must_valid_email_address: 'Email must be a valid email address',
  email_must_at_most_characters: 'Email must be at most {max} characters',
  end_date_cannot_before_start_date: 'End date cannot be before the start date',
  end_date_must_date_yyyy_mm: 'End date must be a date (YYYY-MM-DD)',
  end_date_must_in_future: 'End date must be in the future',
  end_time_cannot_before_start_time: 'End time cannot be before the start time',
  enter_code_from_authenticator_app_or: 'Enter a code from your authenticator app or a recovery code',
  enter_one_recovery_codes: 'Enter one of your recovery codes',
  enter_digit_code_from_authenticator: 'Enter the 6-digit code from your authenticator app',
  file_name_cannot_empty: 'File name cannot be empty',
  file_name_must_at_most: 'File name must be at most {max} characters',
  healthcare_provider_must_at_most: 'Healthcare Provider must be at most {max} characters',
  interpretation_must_one: 'Interpretation must be one of {options}',
  loinc_code_must_look_like: 'LOINC code must look like 4548-4',
  location_must_at_most_characters: 'Location must be at most {max} characters',
  microchip_number_may_hold_only_letters: 'Microchip number may hold only letters, digits, spaces and hyphens',
  not_base64url: 'Not base64url',
  passkey_name_required: 'Passkey name is required',
  passkey_name_must_at_most: 'Passkey name must be at most {max} characters',
  password_required: 'Password is required',
  password_must_at_least_characters: 'Password must be at least {min} characters',
  password_must_at_most_characters: 'Password must be at most {max} characters',
  enter_valid_email_address: 'Please enter a valid email address',
  provider_name_required: 'Provider name is required',
  provider_name_must_at_most: 'Provider name must be at most {max} characters',
  reason_for_visit_must_at_most: 'Reason for Visit must be at most {max} characters',
  appointment_reason_too_long: 'Reason for visit must be at most {max} characters',
  record_name_must_at_most: 'Record Name must be at most {max} characters',
  reference_low_cannot_above_reference_high: 'Reference low cannot be above reference high',
  role_must_viewer_editor_or_manager: 'Role must be viewer, editor or manager',
  select_at_least_one_file: 'Select at least one file',
  select_at_most_files: 'Select at most {max} files',
  status_must_one: 'Status must be one of {options}',
  substance_says_that_no_allergies_are: 'Substance says that no allergies are known: leave the list empty instead',
  that_not_recovery_code: 'That is not a recovery code',
  pin_too_easy_guess_choose_less: 'This PIN is too easy to guess. Please choose a less predictable 4-digit PIN.',
  username_required: 'Username is required',
  username_must_at_most_characters: 'Username must be at most {max} characters',
  value_required: 'Value is required',
  visit_date_must_date_yyyy_mm: 'Visit Date must be a date (YYYY-MM-DD) or an ISO date-time',
  visit_location_must_at_most: 'Visit Location must be at most {max} characters',
  code_required: 'code is required',
  code_must_at_most_characters: 'code must be at most {max} characters',
  codings_must_list_system_code_display: "codings must be a list of '{' system, code, display '}'",
  codings_must_have_at_most: 'codings must have at most {max} entries',
  display_must_at_most_characters: 'display must be at most {max} characters',
  display_must_text: 'display must be text',
  document_languages_may_name_at_most: 'document_languages may name at most {max} languages',
  document_languages_must_among: 'document_languages must be among {options}',
  document_languages_must_name_at_least: 'document_languages must name at least one language',
  document_languages_must_not_repeat_language: 'document_languages must not repeat a language',
  endpoint_required: 'endpoint is required',
  fields_must_among: 'fields must be among {options}',
  fields_must_name_at_least_one: 'fields must name at least one field',
  file_paths_must_unique: 'file paths must be unique',
  fileids_must_list_file_ids: 'fileIds must be a list of file ids',
  format_must_kinchart_export: 'format must be "kinchart-export"',
  not_file_type_kinchart_accepts: 'is not a file type Kinchart accepts',
  keys_must_p256dh_auth: "keys must be '{' p256dh, auth '}'",
  keys_auth_required: 'keys.auth is required',
  keys_p256dh_required: 'keys.p256dh is required',
  kind_must_among: 'kind must be among {options}',
  limit_must_whole_number_from: 'limit must be a whole number from 1 to 50',
  medication_id_required: 'medication_id is required',
  must_taken_or_skipped: 'must be "taken" or "skipped"',
  must_taken_or_snooze: 'must be "taken" or "snooze"',
  must_or_more: 'must be 0 or more',
  must_be_1_to_92: 'must be 1 to 92',
  must_iso_weekdays: 'must be ISO weekdays 1 to 7',
  must_loinc_code_table_or_null: 'must be a LOINC code of the table or null',
  must_date_yyyy_mm_dd_or: 'must be a date (YYYY-MM-DD) or an ISO date-time',
  must_date_and_time_iso: 'must be a date and time (ISO 8601)',
  must_date_and_time_like: 'must be a date and time like 2026-05-01T14:30',
  must_date_as_yyyy_mm_dd: 'must be a date as YYYY-MM-DD or null',
  must_be_iso_date: 'must be a date as YYYY-MM-DD',
  must_finite_number_or_null: 'must be a finite number or null',
  must_finite_number: 'must be a finite number',
  must_list_iso_weekdays: 'must be a list of ISO weekdays 1 to 7',
  must_list_minutes: 'must be a list of minutes',
  must_list_rows: 'must be a list of rows',
  must_list_times_as_hh_mm: 'must be a list of times as HH:MM',
  must_local_time_yyyy_mm_ddthh: 'must be a local time YYYY-MM-DDTHH:MM',
  must_number_or_text: 'must be a number or a text of 1 to 100 characters',
  must_number_or_null: 'must be a number or null',
  must_number: 'must be a number',
  must_page_number: 'must be a page number',
  must_person_id_or_null: 'must be a person id or null',
  must_real_calendar_date: 'must be a real calendar date',
  must_whole_number_days: 'must be a whole number of days',
  must_whole_number: 'must be a whole number',
  is_required: 'is required',
  must_iana_time_zone_such_as: 'must be an IANA time zone such as Europe/Madrid',
  must_iso_date_time: 'must be an ISO-8601 date-time',
  must_https_url: 'must be an https URL',
  must_at_least: 'must be at least 1',
  must_at_most_characters: 'must be at most {max} characters',
  must_at_most: 'must be at most {max}',
  must_at_most_times_day: 'must be at most {max} times a day',
  must_at_most_days: 'must be at most {max} (28 days)',
  must_at_most_reminders: 'must be at most {max} reminders',
  must_base64url: 'must be base64url',
  must_files_name: 'must be files/<name>',
  must_imperial_or_metric: 'must be imperial or metric',
  must_minutes: 'must be minutes',
  must_more_than: 'must be more than {max}',
  must_one_or_null: 'must be one of {options} or null',
  must_one: 'must be one of {options}',
  must_text_characters: 'must be text of 1 to 100 characters',
  must_text_at_most_characters_or: 'must be text of at most {max} characters or null',
  must_text: 'must be text',
  must_token_notification_carried: 'must be the token the notification carried',
  must_times_as_hh_mm: 'must be times as HH:MM (00:00 to 23:59)',
  must_be_times_hh_mm: 'must be times as HH:MM',
  must_true_or_false: 'must be true or false',
  must_whole_days_or_null: 'must be whole days or null',
  must_whole_days: 'must be whole days',
  must_whole_minutes: 'must be whole minutes',
  must_hold_at_least_one_row: 'must hold at least one row',
  must_hold_at_most_rows: 'must hold at most {max} rows',
  must_hold_exactly_one_own_profile: 'must hold exactly one own profile (is_self)',
  must_list_times_day: 'must list 1 to 12 times a day (or set as_needed)',
  must_name_at_least_one_day: 'must name at least one day',
  must_not_before_start_date: 'must not be before start_date',
  must_not_empty: 'must not be empty',
  must_not_in_future: 'must not be in the future',
  names_no_profile_export: 'names no profile of this export',
  next_too_long: 'next is too long',
  next_must_path_on_site: 'next must be a path on this site',
  person_must_person_id: 'person must be a person id',
  personid_must_at_most_characters: 'personId must be at most {max} characters',
  person_id_must_at_most: 'person_id must be at most {max} characters',
  profile_ids_must_unique: 'profile ids must be unique',
  purpose_must_login_or_reauth: 'purpose must be login or reauth',
  reactions_must_list_texts: 'reactions must be a list of texts',
  reactions_must_have_at_most: 'reactions must have at most {max} entries',
  recipient_required: 'recipient is required',
  recipient_must_at_most_characters: 'recipient must be at most {max} characters',
  system_required: 'system is required',
  system_must_at_most_characters: 'system must be at most {max} characters',
  token_required: 'token is required',
  field_required: '{field} is required',
  must_date_as_yyyy_yyyy_mm: '{field} must be a date as YYYY, YYYY-MM or YYYY-MM-DD',
  field_must_be_iso_date: '{field} must be a date as YYYY-MM-DD',
  field_must_be_number: '{field} must be a number',
  field_must_be_real_date: '{field} must be a real calendar date',
  field_too_long: '{field} must be at most {max} characters',
  must_between_and: '{field} must be between 0 and {max}',
  field_must_be_one_of_or_null: '{field} must be one of {options} or null',
} as const satisfies Record<string, string>;

export type MessageCode = keyof typeof MESSAGES;

/**
 * Codes the matcher never picks on its own: `request_error` carries a framework's own text
 * (Fastify's 4xx messages) and `unknown` a text without a code (production only; a test fails).
 */
export const UNMATCHED_CODES: ReadonlySet<string> = new Set(['request_error', 'unknown']);

export interface CodedMessage {
  code: string;
  params?: Record<string, string>;
}

/** A template as its literal pieces and the placeholder between each two: pieces.length === names.length + 1. */
interface Compiled {
  code: string;
  pieces: string[];
  names: string[];
  literalLength: number;
}

/** Splits an ICU template into literal pieces and simple `{name}` placeholders (`'{'`, `'}'` and `''` are literals). */
export function parseTemplate(template: string): { pieces: string[]; names: string[] } {
  const pieces: string[] = [];
  const names: string[] = [];
  let piece = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    const next = template[i + 1];
    if (ch === "'" && (next === '{' || next === '}') && template[i + 2] === "'") {
      piece += next;
      i += 2;
    } else if (ch === "'" && next === "'") {
      piece += "'";
      i += 1;
    } else if (ch === '{') {
      const end = template.indexOf('}', i);
      names.push(template.slice(i + 1, end).trim());
      pieces.push(piece);
      piece = '';
      i = end;
    } else {
      piece += ch;
    }
  }
  pieces.push(piece);
  return { pieces, names };
}

/** The English text of a code with its params filled in (the inverse of messageCode). */
export function formatMessage(template: string, params: Record<string, string> = {}): string {
  const { pieces, names } = parseTemplate(template);
  return pieces.reduce((text, piece, i) => text + piece + (i < names.length ? (params[names[i]!] ?? `{${names[i]}}`) : ''), '');
}

let exact: Map<string, string> | undefined;
let templates: Compiled[] | undefined;

function compile(): { exact: Map<string, string>; templates: Compiled[] } {
  if (exact && templates) return { exact, templates };
  exact = new Map();
  templates = [];
  for (const [code, template] of Object.entries(MESSAGES)) {
    if (UNMATCHED_CODES.has(code)) continue;
    const { pieces, names } = parseTemplate(template);
    if (names.length === 0) exact.set(pieces[0]!, code);
    else templates.push({ code, pieces, names, literalLength: pieces.join('').length });
  }
  // The most specific template first: the most literal text, then the fewest placeholders.
  templates.sort((a, b) => b.literalLength - a.literalLength || a.names.length - b.names.length);
  return { exact, templates };
}

/**
 * Fills a template's placeholders from a text, or undefined when the text is not this template.
 * Linear: the literal pieces are found left to right with indexOf (each placeholder takes at least
 * one character and as few as it can), never by a backtracking regular expression.
 */
function fill(text: string, { pieces, names }: Pick<Compiled, 'pieces' | 'names'>): Record<string, string> | undefined {
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!text.startsWith(first) || !text.endsWith(last) || text.length < first.length + last.length + names.length) return undefined;
  const end = text.length - last.length;
  const params: Record<string, string> = {};
  let at = first.length;
  for (let i = 0; i < names.length; i++) {
    const next = pieces[i + 1]!;
    let stop: number;
    if (i === names.length - 1) {
      stop = end;
      if (stop <= at) return undefined;
    } else {
      stop = text.indexOf(next, at + 1);
      if (stop < 0 || stop + next.length > end) return undefined;
    }
    params[names[i]!] = text.slice(at, stop);
    at = stop + next.length;
  }
  return params;
}

/** The code (and params) of an English message the server sends or a shared schema writes; undefined when it has none. */
export function messageCode(text: string): CodedMessage | undefined {
  const { exact: byText, templates: ordered } = compile();
  const code = byText.get(text);
  if (code) return { code };
  for (const template of ordered) {
    const params = fill(text, template);
    if (params) return { code: template.code, params };
  }
  return undefined;
}
