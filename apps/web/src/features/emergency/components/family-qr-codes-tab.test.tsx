import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeMemberSummary } from '../../../../test/profiles';
import { NOT_CONFIGURED_QR } from '../testing/fixtures';
import type { Person } from '@kinchart/shared/people';
import { FamilyQrCodesTab } from './family-qr-codes-tab';

const SHARE_ID = 'B'.repeat(43);
const ACTIVE = {
  exists: true,
  is_active: true,
  access_pin: '••••',
  qr_data: null,
  share_id: SHARE_ID,
  is_disabled: false,
  essentials_without_pin: false,
  pin_status: 'ok' as const,
};
const members = [
  makeMemberSummary('m1', { name: 'Rex', relationship: 'other', is_pet: true }),
  makeMemberSummary('m2', { name: 'Mia', relationship: 'child', is_pet: false }),
];

/** One entry of GET /api/user/people. */
const makePerson = (id: string, overrides: Partial<Person> = {}): Person => ({
  id,
  name: null,
  relationship: null,
  is_pet: false,
  is_self: false,
  role: 'owner',
  shared_by: null,
  share_id: null,
  ...overrides,
});

function renderTab() {
  return renderRoutes([{ path: '/settings', element: <FamilyQrCodesTab /> }], '/settings');
}

describe('family QR codes tab', () => {
  it('shows one panel per member, with the family link shape when the server gives no qr_data', async () => {
    mockFetch((call) => {
      if (call.url === '/api/user/family/members') return json(members);
      if (call.url === '/api/user/family/members/m1/qr') return json(ACTIVE);
      return json(NOT_CONFIGURED_QR);
    });
    renderTab();
    expect(screen.getByRole('heading', { level: 2, name: 'Family QR Codes' })).toBeTruthy();
    const rex = await screen.findByRole('region', { name: 'QR Code for Rex' });
    const mia = screen.getByRole('region', { name: 'QR Code for Mia' });
    const link = await within(rex).findByRole('link');
    expect(link.getAttribute('href')).toBe(`${window.location.origin}/family/emergency/${SHARE_ID}`);
    expect(await within(mia).findByRole('button', { name: 'Set Up QR Code' })).toBeTruthy();
  });

  it('a member toggle sends an empty body, and a 404 asks to "set up the QR code first"', async () => {
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/family/members') return json([members[0]]);
      if (call.method === 'PUT') return json({ message: 'QR code not found' }, 404);
      return json(ACTIVE);
    });
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('alertdialog', { name: /^Deactivate .+’s QR code\?$/ });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Please set up the QR code first')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/family/members/m1/qr/toggle');
    expect(put?.body).toBeUndefined();
  });

  it('a failed member PIN change says "Error updating PIN"', async () => {
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/family/members') return json([members[0]]);
      if (call.method === 'PUT') return json({}, 500);
      return json(ACTIVE);
    });
    const user = userEvent.setup();
    renderTab();
    await user.type(await screen.findByLabelText('New PIN'), '7314');
    await user.click(screen.getByRole('button', { name: 'Update PIN' }));
    expect(await screen.findByText('Error updating PIN')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/user/family/members/m1/qr/pin', body: { pin: '7314' } });
  });

  it('says "No family members added" when there are none', async () => {
    mockFetch(() => json([]));
    renderTab();
    expect(await screen.findByText('No family members added')).toBeTruthy();
  });

  it('lists the people a manager manages for others, and not those shared as viewer or editor', async () => {
    const people = [
      makePerson('self', { is_self: true }),
      makePerson('p1', { name: 'Leo', role: 'manager', shared_by: 'alice', share_id: 's1' }),
      makePerson('p2', { name: null, is_self: true, role: 'manager', shared_by: 'bob', share_id: 's2' }),
      makePerson('p3', { name: 'Ava', role: 'editor', shared_by: 'alice', share_id: 's3' }),
      makePerson('p4', { name: 'Kit', role: 'viewer', shared_by: 'alice', share_id: 's4' }),
    ];
    mockFetch((call) => {
      if (call.url === '/api/user/family/members') return json([]);
      if (call.url === '/api/user/people') return json(people);
      if (call.url === '/api/user/family/members/p1/qr') return json(ACTIVE);
      return json(NOT_CONFIGURED_QR);
    });
    renderTab();
    const leo = await screen.findByRole('region', { name: 'QR Code for Leo' });
    expect(within(leo.closest('li')!).getByText('Shared by alice')).toBeTruthy();
    expect(await within(leo).findByRole('link')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'QR Code for bob’s profile' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'QR Code for Ava' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'QR Code for Kit' })).toBeNull();
    expect(screen.queryByText('No family members added')).toBeNull();
  });
});
