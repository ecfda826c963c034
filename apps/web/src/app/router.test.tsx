import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { checkAuthAnswer, json, mockFetch, renderRoutes } from '../../test/utils';
import { routes } from './router';

// The real route table, for the pages this foundation owns: marketing, legal, sign-in, 404.
function signedOut() {
  return mockFetch((call) => (call.url === '/api/auth/check-auth' ? checkAuthAnswer(null) : json({ message: 'Not found' }, 404)));
}

describe('routes', () => {
  it('a signed-out visitor who opens a private page lands on the login screen', async () => {
    signedOut();
    const { router } = renderRoutes(routes, '/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome Back!' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('the landing page has the hero, three feature cards, the carousel, contact and a sign-up call', async () => {
    signedOut();
    renderRoutes(routes, '/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Empowering Patients' })).toBeTruthy();
    expect(screen.getByText('Your health records, simplified. Access and manage your medical info.')).toBeTruthy();
    const main = screen.getByRole('main');
    const features = within(main).getByRole('heading', { level: 2, name: /built for/i }).parentElement!;
    expect(within(features).getAllByRole('heading', { level: 3 })).toHaveLength(3);
    expect(within(main).getAllByRole('button', { name: /testimonial|slide/i })).toHaveLength(3);
    expect(within(main).getByRole('heading', { name: 'Get in touch' })).toBeTruthy();
    expect(within(main).getByRole('link', { name: /@/ }).getAttribute('href')).toMatch(/^mailto:/);
    expect(within(main).getByRole('link', { name: 'Sign up for Kinchart' }).getAttribute('href')).toBe('/signup');
  });

  it.each([
    ['/about', 'About Kinchart'],
    ['/howitworks', 'How Kinchart works'],
    ['/faq', 'Frequently asked questions'],
    ['/privacy-policy', 'Privacy Policy'],
    ['/terms-of-service', 'Terms of Service'],
    ['/signup', 'Create an Account'],
    ['/login', 'Welcome Back!'],
  ])('%s has exactly one h1: %s', async (path, title) => {
    signedOut();
    renderRoutes(routes, path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('the about page has a mission and a team section', async () => {
    signedOut();
    renderRoutes(routes, '/about');
    expect(await screen.findByRole('heading', { level: 2, name: 'Our mission' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Our team' })).toBeTruthy();
  });

  it('how it works lists six steps', async () => {
    signedOut();
    renderRoutes(routes, '/howitworks');
    await screen.findByRole('heading', { level: 1, name: 'How Kinchart works' });
    expect(within(screen.getByRole('main')).getAllByRole('listitem')).toHaveLength(6);
  });

  it('the FAQ has six questions whose answers open and close', async () => {
    signedOut();
    const user = userEvent.setup();
    renderRoutes(routes, '/faq');
    const questions = await screen.findAllByRole('heading', { level: 2 });
    expect(questions).toHaveLength(6);
    const first = within(questions[0]!).getByRole('button');
    const answer = document.getElementById(first.getAttribute('aria-controls')!)!;
    expect(answer.hidden).toBe(true);
    await user.click(first);
    expect(first.getAttribute('aria-expanded')).toBe('true');
    expect(answer.hidden).toBe(false);
    await user.click(first);
    expect(answer.hidden).toBe(true);
  });

  it('an unknown address shows the not-found page', async () => {
    signedOut();
    renderRoutes(routes, '/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('an invitation link opens signed out, inside the app layout, without a detour to /login', async () => {
    mockFetch((call) => {
      if (call.url === '/api/auth/check-auth') return checkAuthAnswer(null);
      if (call.url === '/api/invitations/tok')
        return json({ shared_by: 'alice', person_name: 'Mia', is_pet: false, role: 'viewer', expires_at: null });
      return json({ message: 'Not found' }, 404);
    });
    const { router } = renderRoutes(routes, '/invite/tok');
    expect(await screen.findByRole('heading', { level: 1, name: 'Invitation' })).toBeTruthy();
    expect(await screen.findByText(/wants to share/)).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/invite/tok');
  });
});
