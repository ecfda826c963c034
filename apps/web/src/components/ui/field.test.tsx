import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field } from './field';

describe('Field', () => {
  it('labels its input and ties the hint and the error to it', () => {
    render(<Field label="PIN" hint="4 digits" error="PIN must be 4 digits" inputMode="numeric" />);
    const input = screen.getByLabelText('PIN');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['4 digits', 'PIN must be 4 digits']);
  });

  it('has no description and is valid without hint or error', () => {
    render(<Field label="Name" />);
    const input = screen.getByLabelText('Name');
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
  });
});
