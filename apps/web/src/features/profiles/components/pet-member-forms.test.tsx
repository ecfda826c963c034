import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FamilyMember } from '@kinchart/shared/profile';
import { json, Landmark, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeMember } from '../../../../test/profiles';
import { EditFamilyMemberPage } from '../pages/edit-family-member-page';
import { AddFamilyMemberModal } from './add-family-member-modal';

// Issue 30 #25 and #28 (docs/decisions/0037): a pet's form has the pet's fields and none of the
// human-only ones; the edit form offers the add form's relationships and keeps any other value.

const petFields = {
  species: 'Dog',
  breed: 'Border Collie',
  microchip_number: '985 112 003 456 789',
  vet_name: 'Riverside Vets',
  vet_phone: '+1 555 0142',
};
const HUMAN_ONLY_LABELS = ['Blood Type', 'Primary Language', 'Religious Restrictions', 'Organ donor', 'Advance directives', 'Living will'];

function renderEditor(member: FamilyMember) {
  const { calls } = mockFetch((call) => {
    if (call.url !== `/api/user/family/members/${member.id}`) return json({}, 404);
    return call.method === 'PUT' ? json({ ...member, message: 'Family member updated successfully!' }) : json(member);
  });
  renderRoutes(
    [
      { path: '/edit-family-member/:id', element: <EditFamilyMemberPage /> },
      { path: '/dashboard', element: <Landmark name="Dashboard route" /> },
    ],
    `/edit-family-member/${member.id}`,
  );
  return calls;
}

/** Every field label on the Basic Information and Additional Information tabs. */
async function labelsOfMemberForm(user: ReturnType<typeof userEvent.setup>): Promise<string> {
  await screen.findByLabelText('Name');
  const basic = screen.getByRole('tabpanel').textContent ?? '';
  await user.click(screen.getByRole('tab', { name: 'Additional Information' }));
  const additional = screen.getByRole('tabpanel').textContent ?? '';
  await user.click(screen.getByRole('tab', { name: 'Basic Information' }));
  return `${basic}\n${additional}`;
}

describe('Edit Family Member for a pet', { timeout: 15_000 }, () => {
  it('an owner sees and edits the pet’s species, breed, microchip and vet, and no human-only field', async () => {
    const calls = renderEditor(makeMember('p1', { name: 'Rex', relationship: 'other', is_pet: true, ...petFields }));
    const user = userEvent.setup();
    const labels = await labelsOfMemberForm(user);
    for (const human of HUMAN_ONLY_LABELS) expect(labels, human).not.toContain(human);
    // What a pet can have stays.
    expect(labels).toContain('Vision impairment');

    expect(screen.getByLabelText<HTMLInputElement>('Species').value).toBe('Dog');
    expect(screen.getByLabelText<HTMLInputElement>('Breed').value).toBe('Border Collie');
    expect(screen.getByLabelText<HTMLInputElement>('Microchip Number').value).toBe('985 112 003 456 789');
    expect(screen.getByLabelText<HTMLInputElement>('Vet Name').value).toBe('Riverside Vets');
    await user.clear(screen.getByLabelText('Vet Phone'));
    await user.type(screen.getByLabelText('Vet Phone'), '+1 555 0199');
    await user.click(screen.getByRole('button', { name: 'Update Family Member' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      ...petFields,
      vet_phone: '+1 555 0199',
      is_pet: true,
      relationship: 'other',
    });
  });

  it('a microchip number with other characters is refused before anything is sent', async () => {
    const calls = renderEditor(makeMember('p1', { name: 'Rex', is_pet: true, ...petFields }));
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Microchip Number'), '!');
    await user.click(screen.getByRole('button', { name: 'Update Family Member' }));
    expect(await screen.findByText('Microchip number may hold only letters, digits, spaces and hyphens')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('checking "This is a pet" swaps the human-only fields for the pet fields, and unchecking swaps them back', async () => {
    renderEditor(makeMember('m1', { name: 'Carol', relationship: 'child', blood_type: 'A+' }));
    const user = userEvent.setup();
    expect(await screen.findByLabelText('Blood Type')).toBeTruthy();
    expect(screen.queryByLabelText('Species')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'This is a pet' }));
    expect(screen.queryByLabelText('Blood Type')).toBeNull();
    expect(screen.getByLabelText('Species')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'This is a pet' }));
    expect(screen.getByLabelText<HTMLSelectElement>('Blood Type').value).toBe('A+');
  });
});

describe('relationship in Edit Family Member', { timeout: 15_000 }, () => {
  it('offers the add form’s five relationships, with the current one chosen', async () => {
    renderEditor(makeMember('m1', { relationship: 'child' }));
    const select = await screen.findByLabelText<HTMLSelectElement>('Relationship');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['', 'spouse', 'child', 'parent', 'sibling', 'other']);
    expect(select.value).toBe('child');
    expect(select.selectedOptions[0]?.textContent).toBe('Child');
  });

  it.each([
    ['free text', 'Grandma'],
    ['a list value written another way', 'Child'],
  ])('keeps and shows a value that is %s, and saving without a change sends it unchanged', async (_kind, relationship) => {
    const calls = renderEditor(makeMember('m1', { relationship }));
    const user = userEvent.setup();
    const select = await screen.findByLabelText<HTMLSelectElement>('Relationship');
    expect(select.value).toBe(relationship);
    expect(select.selectedOptions[0]?.textContent).toContain(relationship);
    await user.click(screen.getByRole('button', { name: 'Update Family Member' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ relationship });
  });
});

describe('Add Family Member for a pet', () => {
  it('an owner adds a pet with its species, breed, microchip and vet', async () => {
    const { calls } = mockFetch((call) =>
      call.url === '/api/user/family/add'
        ? json({ ...makeMember('p1', { name: 'Rex', is_pet: true, ...petFields }), message: 'Family member added successfully!' }, 201)
        : json([]),
    );
    const onClose = vi.fn();
    renderRoutes([{ path: '/', element: <AddFamilyMemberModal open onClose={onClose} /> }], '/');
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Add Family Member' });
    expect(within(dialog).queryByLabelText('Species')).toBeNull();

    await user.type(within(dialog).getByLabelText('Name'), 'Rex');
    await user.type(within(dialog).getByLabelText('Date of Birth'), '2019-05-01');
    await user.selectOptions(within(dialog).getByLabelText('Relationship'), 'other');
    await user.click(within(dialog).getByRole('checkbox', { name: 'This is a pet' }));
    await user.type(within(dialog).getByLabelText('Species'), petFields.species);
    await user.type(within(dialog).getByLabelText('Breed'), petFields.breed);
    await user.type(within(dialog).getByLabelText('Microchip Number'), petFields.microchip_number);
    await user.type(within(dialog).getByLabelText('Vet Name'), petFields.vet_name);
    await user.type(within(dialog).getByLabelText('Vet Phone'), petFields.vet_phone);
    await user.click(within(dialog).getByRole('button', { name: 'Add Member' }));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Rex',
      date_of_birth: '2019-05-01',
      relationship: 'other',
      is_pet: true,
      ...petFields,
    });
  });
});
