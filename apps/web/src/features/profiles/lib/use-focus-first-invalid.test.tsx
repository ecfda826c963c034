import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { useFocusFirstInvalid } from './use-focus-first-invalid';

interface Values {
  name: string;
  allergies: string;
}

// Like the editors' zod resolvers it judges every value, also those of the tab not shown; here the
// (empty) allergies field is always wrong.
const resolver: Resolver<Values> = () => ({
  values: {},
  errors: { allergies: { type: 'required', message: 'Allergies are required' } },
});

/** Two tabs; only the shown tab's field is rendered, as in the profile editors. */
function TabbedForm() {
  const [tab, setTab] = useState<'basic' | 'medical'>('basic');
  const form = useForm<Values>({ resolver, defaultValues: { name: 'Ann', allergies: '' }, shouldFocusError: false });
  const onInvalid = useFocusFirstInvalid(form.setFocus, (field) => setTab(field === 'allergies' ? 'medical' : 'basic'));
  return (
    <form onSubmit={form.handleSubmit(() => {}, onInvalid)}>
      <p>tab: {tab}</p>
      {tab === 'basic' ? (
        <input aria-label="Name" {...form.register('name')} />
      ) : (
        <input aria-label="Allergies" {...form.register('allergies')} />
      )}
      <button type="submit">Save</button>
    </form>
  );
}

describe('useFocusFirstInvalid', () => {
  it('shows the tab of the first wrong field, then focuses that field', async () => {
    const user = userEvent.setup();
    render(<TabbedForm />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('tab: medical')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Allergies' })));
  });
});
