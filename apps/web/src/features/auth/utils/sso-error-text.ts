import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { SSO_ERRORS, type SsoErrorCode } from '@kinchart/shared/auth-texts';

/** SSO_ERRORS' words (the English ones are the shared table's), for the reader's catalog. */
const SSO_ERROR_MESSAGES: Record<SsoErrorCode, MessageDescriptor> = {
  expired: msg`That sign-in took too long or was already used. Please try again.`,
  browser: msg`Single sign-on must finish in the browser where it started. Please try again here.`,
  denied: msg`Sign-in was cancelled at your identity provider.`,
  failed: msg`Single sign-on could not be completed. Please try again.`,
  unverified: msg`Your identity provider did not confirm your email address, so it cannot sign you in here.`,
  no_account: msg`No account here uses your email address, and this server does not create accounts through single sign-on.`,
  unavailable: msg`Single sign-on is not available right now. Please try again later, or log in with your password.`,
  other_account: msg`That sign-in belongs to another account. Confirm with the account you are signed in with.`,
  limited: msg`Too many sign-in attempts. Please try again in 15 minutes.`,
  session: msg`Your session has ended. Please log in again.`,
};

/**
 * The words for a single sign-on failure's code read from an address (`?sso_error=`), in the
 * reader's language; an unknown code gets the general failure (as ssoErrorText does).
 */
export function ssoErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  const key: SsoErrorCode = Object.hasOwn(SSO_ERRORS, code) ? (code as SsoErrorCode) : 'failed';
  return i18n._(SSO_ERROR_MESSAGES[key]);
}
