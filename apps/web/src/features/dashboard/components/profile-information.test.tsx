import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../../test/utils';
import { makeMember } from '../../../../test/profiles';
import { ProfileInformation } from './profile-information';

// Issue 30 #25 (docs/decisions/0037): a pet's Basic Info is a pet's.

function renderPerson(person: Parameters<typeof ProfileInformation>[0]['person']) {
  renderRoutes([{ path: '/', element: <ProfileInformation person={person} loading={false} editHref={null} editLabel="Edit" /> }], '/');
}

const rowOf = (block: HTMLElement, label: string) => within(block).getByText(label, { selector: 'dt' }).nextElementSibling;

describe('Profile Information for a pet', () => {
  it('Basic Info shows the species, breed, microchip and vet (with a call link), and no blood type', () => {
    renderPerson(
      makeMember('p1', {
        name: 'Rex',
        relationship: 'other',
        is_pet: true,
        species: 'Dog',
        breed: 'Border Collie',
        microchip_number: '985 112 003 456 789',
        vet_name: 'Riverside Vets',
        vet_phone: '+1 555 0142',
      }),
    );
    const basic = screen.getByRole('heading', { name: 'Basic Info' }).parentElement as HTMLElement;
    expect(rowOf(basic, 'Species')?.textContent).toBe('Dog');
    expect(rowOf(basic, 'Breed')?.textContent).toBe('Border Collie');
    expect(rowOf(basic, 'Microchip')?.textContent).toBe('985 112 003 456 789');
    expect(rowOf(basic, 'Vet')?.textContent).toBe('Riverside Vets · +1 555 0142');
    expect(within(basic).getByRole('link', { name: '+1 555 0142' }).getAttribute('href')).toBe('tel:+1 555 0142');
    expect(rowOf(basic, 'Relationship')?.textContent).toBe('Other');
    expect(screen.queryByText('Blood Type')).toBeNull();
  });

  it('a person’s Basic Info has no pet rows, and Critical Medical Info keeps the blood type', () => {
    renderPerson(makeMember('m1', { name: 'Carol', blood_type: 'A+' }));
    expect(screen.queryByText('Species')).toBeNull();
    expect(screen.queryByText('Microchip')).toBeNull();
    const critical = screen.getByRole('heading', { name: 'Critical Medical Info' }).parentElement as HTMLElement;
    expect(rowOf(critical, 'Blood Type')?.textContent).toBe('A+');
  });
});
