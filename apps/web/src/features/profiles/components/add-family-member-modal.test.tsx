import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeMember } from '../../../../test/profiles';
import { AddFamilyMemberModal } from './add-family-member-modal';

function renderModal(onClose = vi.fn(), onAdded = vi.fn()) {
  renderRoutes([{ path: '/', element: <AddFamilyMemberModal open onClose={onClose} onAdded={onAdded} /> }], '/');
  return { onClose, onAdded };
}

describe('Add Family Member modal', () => {
  it('offers the five relationships and a pet checkbox', async () => {
    mockFetch(() => json({}, 404));
    renderModal();
    const dialog = await screen.findByRole('dialog', { name: 'Add Family Member' });
    const options = within(within(dialog).getByLabelText('Relationship')).getAllByRole('option');
    expect(options.map((o) => o.getAttribute('value'))).toEqual(['', 'spouse', 'child', 'parent', 'sibling', 'other']);
    expect(within(dialog).getByRole('checkbox', { name: 'This is a pet' })).toBeTruthy();
  });

  it('requires name, date of birth and relationship and sends nothing without them', async () => {
    const { calls } = mockFetch(() => json({}, 404));
    const user = userEvent.setup();
    renderModal();
    await user.click(await screen.findByRole('button', { name: 'Add Member' }));

    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Date of birth is required')).toBeTruthy();
    expect(screen.getByText('Relationship is required')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toHaveLength(0);
  });

  it('adds a pet with POST /api/user/family/add (201), announces familyMemberUpdated and closes', async () => {
    const events = vi.fn();
    window.addEventListener('familyMemberUpdated', events);
    const { calls } = mockFetch((call) =>
      call.url === '/api/user/family/add'
        ? json({ ...makeMember('p1', { name: 'Rex', is_pet: true }), message: 'Family member added successfully!' }, 201)
        : json([]),
    );
    const user = userEvent.setup();
    const { onClose, onAdded } = renderModal();

    await user.type(await screen.findByLabelText('Name'), 'Rex');
    await user.type(screen.getByLabelText('Date of Birth'), '2019-06-01');
    await user.selectOptions(screen.getByLabelText('Relationship'), 'other');
    await user.click(screen.getByRole('checkbox', { name: 'This is a pet' }));
    await user.click(screen.getByRole('button', { name: 'Add Member' }));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onAdded).toHaveBeenCalledWith('Family member added successfully!');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Rex',
      date_of_birth: '2019-06-01',
      relationship: 'other',
      is_pet: true,
      // A pet's own fields, left empty (docs/decisions/0037).
      species: null,
      breed: null,
      microchip_number: null,
      vet_name: null,
      vet_phone: null,
    });
    expect(events).toHaveBeenCalledTimes(1);
    window.removeEventListener('familyMemberUpdated', events);
  });

  it('shows "Error adding family member" when the add fails', async () => {
    mockFetch(() => json({}, 500));
    const user = userEvent.setup();
    const { onClose } = renderModal();
    await user.type(await screen.findByLabelText('Name'), 'Carol');
    await user.type(screen.getByLabelText('Date of Birth'), '2012-09-15');
    await user.selectOptions(screen.getByLabelText('Relationship'), 'child');
    await user.click(screen.getByRole('button', { name: 'Add Member' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Error adding family member');
    expect(onClose).not.toHaveBeenCalled();
  });
});
