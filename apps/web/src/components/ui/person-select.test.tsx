import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../test/people';
import { PersonSelect } from './person-select';
import { SharedByBadge } from './shared-by-badge';

const people = [
  makeSelf('me', { name: 'Pat' }),
  makeFamilyPerson('mia', { name: 'Mia' }),
  makeSharedPerson('joe', { name: 'Joe', shared_by: 'sam' }),
];

describe('PersonSelect', () => {
  it('is a labelled select of people, shared ones named with who shares them, and "Everyone" first when asked', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(
      <PersonSelect label="Person" people={people} value="" onChange={onChange} everyoneLabel="Everyone" hint="Whose records to show" />,
    );
    const select = screen.getByRole('combobox', { name: 'Person' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Everyone', 'Pat (you)', 'Mia', 'Joe (Shared by sam)']);
    expect(select.getAttribute('aria-describedby')).toBe(screen.getByText('Whose records to show').id);
    await user.selectOptions(select, 'joe');
    expect(onChange).toHaveBeenCalledWith('joe');
  });

  it('without "Everyone" a person is always chosen', () => {
    render(<PersonSelect label="For" people={people} value="mia" onChange={() => undefined} />);
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'For' });
    expect(select.value).toBe('mia');
    expect(within(select).queryByRole('option', { name: 'Everyone' })).toBeNull();
  });
});

describe('SharedByBadge', () => {
  it('says who shares the person', () => {
    render(<SharedByBadge username="sam" />);
    expect(screen.getByText('Shared by sam')).toBeTruthy();
  });
});
