import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';
import { Modal } from './modal';

function ModalHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="Add Appointment" footer={<button type="button">Save</button>}>
        <label>
          Provider
          <input />
        </label>
      </Modal>
    </>
  );
}

/** jsdom lays nothing out: pretend every element is 500 px of content in a 100 px box. */
function pretendOverflow() {
  const scroll = vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(500);
  const client = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(100);
  return () => {
    scroll.mockRestore();
    client.mockRestore();
  };
}

describe('Modal', () => {
  it('lets the keyboard reach a body that scrolls with nothing focusable in it, and adds no stop otherwise', () => {
    const restore = pretendOverflow();
    try {
      const { unmount } = render(
        <Modal open onClose={() => {}} title="Access history">
          <p>A long list</p>
        </Modal>,
      );
      const body = screen.getByText('A long list').parentElement;
      expect(body?.getAttribute('tabindex')).toBe('0');
      unmount();
      render(
        <Modal open onClose={() => {}} title="Share access">
          <button type="button">Revoke</button>
        </Modal>,
      );
      expect(screen.getByRole('button', { name: 'Revoke' }).parentElement?.hasAttribute('tabindex')).toBe(false);
    } finally {
      restore();
    }
  });

  it('a scrolling body whose fields are all disabled while a form sends becomes a tab stop until they are back', async () => {
    const restore = pretendOverflow();
    // jsdom has no ResizeObserver; the dialog watches its body with one only where it exists.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    try {
      function Sending() {
        const [busy, setBusy] = useState(false);
        return (
          <Modal
            open
            onClose={() => {}}
            title="Share access"
            footer={
              <button type="button" onClick={() => setBusy((b) => !b)}>
                Toggle
              </button>
            }
          >
            <fieldset disabled={busy}>
              <label>
                Email
                <input />
              </label>
            </fieldset>
          </Modal>
        );
      }
      const user = userEvent.setup();
      render(<Sending />);
      const body = screen.getByRole('group').parentElement;
      expect(body?.hasAttribute('tabindex')).toBe(false);
      await user.click(screen.getByRole('button', { name: 'Toggle' }));
      await vi.waitFor(() => expect(body?.getAttribute('tabindex')).toBe('0'));
      await user.click(screen.getByRole('button', { name: 'Toggle' }));
      await vi.waitFor(() => expect(body?.hasAttribute('tabindex')).toBe(false));
    } finally {
      restore();
    }
  });

  it('adds no tab stop to a body that fits', () => {
    render(
      <Modal open onClose={() => {}} title="Short">
        <p>Short text</p>
      </Modal>,
    );
    expect(screen.getByText('Short text').parentElement?.hasAttribute('tabindex')).toBe(false);
  });

  it('is a labelled modal dialog that takes focus, keeps Tab inside, closes on Escape and returns focus', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const opener = screen.getByRole('button', { name: 'Open dialog' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Add Appointment' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(screen.getByLabelText('Provider'));

    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    await user.tab();
    expect(document.activeElement).toBe(close);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Provider'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(close);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('opens with the keyboard on the first field, past the × control and any buttons before it', () => {
    render(
      <Modal open onClose={() => undefined} title="Edit" footer={<button type="button">Save</button>}>
        <button type="button">Help</button>
        <label>
          Name
          <input disabled />
        </label>
        <label>
          Notes
          <textarea />
        </label>
      </Modal>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText('Notes'));
  });

  it('opens with the keyboard on the first action when the dialog has no field', () => {
    render(
      <Modal
        open
        onClose={() => undefined}
        title="Appointment"
        footer={
          <>
            <button type="button">Edit</button>
            <button type="button">Delete</button>
          </>
        }
      >
        <p>Dr. Lee, 10:00</p>
      </Modal>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit' }));
  });

  it('closes from the × control and from the backdrop', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <Modal open onClose={onClose} title="Details">
        <p>Body</p>
      </Modal>,
    );
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('ConfirmDialog', () => {
  it('is an alert dialog that starts on Cancel and confirms only on the confirm button', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog
        open
        title="Confirm Delete"
        message="Are you sure you want to delete this file?"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Confirm Delete' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Are you sure you want to delete this file?',
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));

    await user.keyboard('{Enter}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('disables both buttons and shows the busy label while busy', () => {
    render(<ConfirmDialog open busy title="Confirm Delete" message="Sure?" onConfirm={() => undefined} onCancel={() => undefined} />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Deleting...' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
  });
});
