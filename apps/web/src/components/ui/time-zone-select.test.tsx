import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TimeZoneSelect } from './time-zone-select';

const options = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => (o as HTMLOptionElement).value);

describe('TimeZoneSelect', () => {
  it('offers the browser’s zones, "Same as my account" first when asked, and narrows them by a search', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<TimeZoneSelect label="Time zone" value="" onChange={onChange} emptyLabel="Same as my account" hint="Follows this zone." />);
    const select = screen.getByRole('combobox', { name: 'Time zone' });
    expect(options(select)[0]).toBe('');
    expect(options(select)).toEqual(expect.arrayContaining(['UTC', 'Europe/Madrid', 'America/New_York']));
    expect(select.getAttribute('aria-describedby')).toBe(screen.getByText('Follows this zone.').id);

    await user.type(screen.getByRole('searchbox', { name: 'Search time zones' }), 'new york');
    expect(options(select)).toEqual(['', 'America/New_York']);
    expect(screen.getByText('1 zone matches')).toBeTruthy();
    await user.selectOptions(select, 'America/New_York');
    expect(onChange).toHaveBeenCalledWith('America/New_York');
  });

  it('keeps the chosen zone among the choices whatever the search finds', async () => {
    const user = userEvent.setup();
    render(<TimeZoneSelect label="Time zone" value="Asia/Tokyo" onChange={() => undefined} />);
    await user.type(screen.getByRole('searchbox', { name: 'Search time zones' }), 'madrid');
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Time zone' });
    expect(options(select)).toEqual(['Asia/Tokyo', 'Europe/Madrid']);
    expect(select.value).toBe('Asia/Tokyo');
    expect(screen.getByText('1 zone matches')).toBeTruthy();
  });
});
