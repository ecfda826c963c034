import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactElement, ReactNode } from 'react';
import { act, render as renderBare, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TestimonialCarousel, testimonials } from './testimonial-carousel';

/** Rendered as the app renders it: inside the active catalog's provider. */
const render = (ui: ReactElement) =>
  renderBare(ui, { wrapper: ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider> });

function visibleSlide(): HTMLElement {
  const slides = screen.getAllByRole('group', { hidden: true }).filter((el) => el.getAttribute('aria-roledescription') === 'slide');
  const shown = slides.filter((el) => !el.hidden);
  expect(slides).toHaveLength(3);
  expect(shown).toHaveLength(1);
  return shown[0]!;
}

function dot(n: number): HTMLElement {
  return screen.getByRole('button', { name: `Show testimonial ${n}` });
}

describe('testimonial carousel', () => {
  it('has three slides and three dots, the first one current', () => {
    render(<TestimonialCarousel />);
    expect(screen.getAllByRole('button', { name: /^Show testimonial \d$/ })).toHaveLength(3);
    expect(dot(1).getAttribute('aria-current')).toBe('true');
    expect(dot(2).hasAttribute('aria-current')).toBe(false);
    expect(visibleSlide().getAttribute('aria-label')).toBe('1 of 3');
    expect(within(visibleSlide()).getByText(testimonials[0]!.name)).toBeTruthy();
  });

  it('a dot shows its slide and becomes the current one', async () => {
    const user = userEvent.setup();
    render(<TestimonialCarousel />);

    await user.click(dot(3));
    expect(visibleSlide().getAttribute('aria-label')).toBe('3 of 3');
    expect(within(visibleSlide()).getByText(testimonials[2]!.name)).toBeTruthy();
    expect(dot(3).getAttribute('aria-current')).toBe('true');
    expect(dot(1).hasAttribute('aria-current')).toBe(false);

    await user.click(dot(2));
    expect(visibleSlide().getAttribute('aria-label')).toBe('2 of 3');
    expect(dot(2).getAttribute('aria-current')).toBe('true');
  });

  it('previous and next wrap around, and the arrow keys do the same', async () => {
    const user = userEvent.setup();
    render(<TestimonialCarousel />);

    await user.click(screen.getByRole('button', { name: 'Previous story' }));
    expect(visibleSlide().getAttribute('aria-label')).toBe('3 of 3');
    await user.click(screen.getByRole('button', { name: 'Next story' }));
    expect(visibleSlide().getAttribute('aria-label')).toBe('1 of 3');

    dot(1).focus();
    await user.keyboard('{ArrowRight}');
    expect(visibleSlide().getAttribute('aria-label')).toBe('2 of 3');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(visibleSlide().getAttribute('aria-label')).toBe('3 of 3');
  });

  it('does not move on its own', () => {
    vi.useFakeTimers();
    try {
      render(<TestimonialCarousel />);
      // A minute on the (faked) clock, looked at every half second: any timer the carousel set would have fired.
      for (let step = 1; step <= 120; step += 1) {
        act(() => {
          vi.advanceTimersByTime(500);
        });
        expect(visibleSlide().getAttribute('aria-label'), `after ${step * 500} ms`).toBe('1 of 3');
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('right to left, the arrow keys follow the mirrored dots', async () => {
    const user = userEvent.setup();
    renderBare(
      <I18nProvider i18n={i18n}>
        <div dir="rtl">
          <TestimonialCarousel />
        </div>
      </I18nProvider>,
    );
    dot(1).focus();
    await user.keyboard('{ArrowLeft}');
    expect(visibleSlide().getAttribute('aria-label')).toBe('2 of 3');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(visibleSlide().getAttribute('aria-label')).toBe('3 of 3');
  });
});
