import type { CDPSession, Page } from 'playwright-core';

// Chromium's virtual authenticator (DevTools protocol, WebAuthn domain): a platform authenticator
// that holds discoverable credentials and verifies its user (as a fingerprint reader would),
// answering every request at once. Real WebAuthn in the browser, real signatures to the server.

export interface VirtualAuthenticator {
  cdp: CDPSession;
  id: string;
  /** The credentials it holds, as the browser sees them. */
  credentials(): Promise<{ credentialId: string; isResidentCredential: boolean; signCount: number }[]>;
}

export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    cdp,
    id: authenticatorId,
    async credentials() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials;
    },
  };
}
