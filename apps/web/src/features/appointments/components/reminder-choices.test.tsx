import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactElement, ReactNode } from 'react';
import { render as renderBare, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ReminderChoices } from './reminder-choices';

/** Rendered as the app renders it: inside the active catalog's provider. */
const render = (ui: ReactElement) =>
  renderBare(ui, { wrapper: ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider> });

function Harness({ initial, onChange }: { initial: number[]; onChange: (m: number[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <ReminderChoices
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('ReminderChoices', () => {
  it('is a group of lead times; several may be chosen, longest first, or none', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Harness initial={[1440, 120]} onChange={onChange} />);
    const group = screen.getByRole('group', { name: 'Reminders' });
    expect(group).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: '1 day before' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: '2 hours before' }).checked).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: '15 minutes before' }));
    expect(onChange).toHaveBeenLastCalledWith([1440, 120, 15]);
    await user.click(screen.getByRole('checkbox', { name: '1 day before' }));
    await user.click(screen.getByRole('checkbox', { name: '2 hours before' }));
    await user.click(screen.getByRole('checkbox', { name: '15 minutes before' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('shows a lead time set elsewhere among the choices, so saving keeps it', () => {
    render(<Harness initial={[45, 4320]} onChange={() => undefined} />);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: '45 minutes before' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: '3 days before' }).checked).toBe(true);
  });
});
