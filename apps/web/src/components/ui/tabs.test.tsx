import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Tabs } from './tabs';

const items = [
  { id: 'current', label: 'Current Medications', content: <p>Current list</p> },
  { id: 'history', label: 'Medication History', content: <p>History list</p> },
  { id: 'other', label: 'Other', content: <p>Other list</p> },
];

function panelOf(tab: HTMLElement): HTMLElement {
  return document.getElementById(tab.getAttribute('aria-controls')!)!;
}

describe('Tabs', () => {
  it('selects the first tab, with only it in the Tab order and only its panel shown', () => {
    render(<Tabs label="Prescriptions" items={items} />);
    expect(screen.getByRole('tablist', { name: 'Prescriptions' })).toBeTruthy();
    const [first, second] = screen.getAllByRole('tab');
    expect(first!.getAttribute('aria-selected')).toBe('true');
    expect(first!.tabIndex).toBe(0);
    expect(second!.tabIndex).toBe(-1);
    expect(panelOf(first!).hidden).toBe(false);
    expect(panelOf(second!).hidden).toBe(true);
    expect(panelOf(first!).getAttribute('aria-labelledby')).toBe(first!.id);
  });

  it('arrow keys, Home and End move the selection and the focus, wrapping around', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Tabs label="Prescriptions" items={items} onChange={onChange} />);
    const tabs = screen.getAllByRole('tab');
    tabs[0]!.focus();

    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tabs[1]);
    expect(tabs[1]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('History list').closest('[role="tabpanel"]')?.hasAttribute('hidden')).toBe(false);

    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(tabs[2]);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(tabs[0]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(tabs[2]);
    expect(onChange.mock.calls.map((c) => c[0] as string)).toEqual(['history', 'current', 'other', 'current', 'other']);
  });

  it('vertical tabs use the up and down arrows', async () => {
    const user = userEvent.setup();
    render(<Tabs label="Settings" items={items} orientation="vertical" defaultValue="history" />);
    const tabs = screen.getAllByRole('tab');
    expect(screen.getByRole('tablist').getAttribute('aria-orientation')).toBe('vertical');
    expect(tabs[1]!.getAttribute('aria-selected')).toBe('true');
    tabs[1]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(tabs[2]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowRight}');
    expect(tabs[2]!.getAttribute('aria-selected')).toBe('true');
  });
});
