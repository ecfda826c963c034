import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkAuthAnswer, json, mockFetch, renderRoutes } from '../../test/utils';
import { routes } from './router';

// Two real pages made to fail: one whose code cannot be fetched (as after a deploy or on a bad
// connection), one that throws while it renders. The rest of the route table is the real one.
// Each test uses its own page: the route table, and what it has loaded, lives for the whole file.
const failures = vi.hoisted(() => ({ privacyImports: 0, privacyFailsFor: 0, faqImports: 0, faqFailsFor: 0, termsThrows: false }));

vi.mock('../features/marketing/pages/privacy-policy-page', async (importOriginal) => {
  failures.privacyImports += 1;
  if (failures.privacyImports <= failures.privacyFailsFor) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

vi.mock('../features/marketing/pages/faq-page', async (importOriginal) => {
  failures.faqImports += 1;
  if (failures.faqImports <= failures.faqFailsFor) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

vi.mock('../features/marketing/pages/terms-of-service-page', () => ({
  TermsOfServicePage: () => {
    if (failures.termsThrows) throw new Error('render failed');
    return <h1>Terms of Service</h1>;
  },
}));

afterEach(() => {
  failures.privacyImports = 0;
  failures.privacyFailsFor = 0;
  failures.faqImports = 0;
  failures.faqFailsFor = 0;
  failures.termsThrows = false;
  vi.restoreAllMocks();
});

function signedOut() {
  return mockFetch((call) => (call.url === '/api/auth/check-auth' ? checkAuthAnswer(null) : json({ message: 'Not found' }, 404)));
}

describe('a page that fails', () => {
  it('a page whose code cannot be fetched says so inside the layout, header and navigation kept, and Try again loads it', async () => {
    failures.privacyFailsFor = 1;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signedOut();
    const user = userEvent.setup();
    renderRoutes(routes, '/privacy-policy');
    const main = await screen.findByRole('main');
    expect(await within(main).findByText('This page could not be loaded.')).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();

    await user.click(within(main).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(screen.queryByText('This page could not be loaded.')).toBeNull();
    expect(screen.getByRole('banner')).toBeTruthy();
  });

  it('a page that fails again on Try again keeps the message and the header, and offers a full reload', async () => {
    failures.faqFailsFor = 2;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signedOut();
    const user = userEvent.setup();
    renderRoutes(routes, '/faq');
    const main = await screen.findByRole('main');
    await user.click(await within(main).findByRole('button', { name: 'Try again' }));
    // Failed twice: the browser may be keeping the failed download, so a full reload is offered too.
    expect(await within(main).findByRole('button', { name: 'Reload page' })).toBeTruthy();
    expect(within(main).getByText('This page could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    await user.click(within(main).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeTruthy();
  });

  it('a page that breaks while showing says so inside the layout and Try again shows it again', async () => {
    failures.termsThrows = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signedOut();
    const user = userEvent.setup();
    renderRoutes(routes, '/terms-of-service');
    const main = await screen.findByRole('main');
    expect(await within(main).findByText('This page could not be shown.')).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();

    failures.termsThrows = false;
    await user.click(within(main).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
  });
});
