import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type KeyboardEvent } from 'react';

export interface Testimonial {
  quote: MessageDescriptor;
  /** A first name: the same in every language. */
  name: string;
  context: MessageDescriptor;
}

export const testimonials: readonly Testimonial[] = [
  {
    quote: msg`My mother sees four specialists. Before Kinchart I carried a folder of printouts to every visit; now her medication list, allergies and last scans are on my phone, and her doctors get the same picture.`,
    name: 'Priya',
    context: msg`Cares for her mother and two children`,
  },
  {
    quote: msg`The emergency QR code sits on my son’s allergy bracelet. When he had a reaction at football practice, the coach scanned it, entered the PIN and read out his allergies and medications to the paramedics.`,
    name: 'Daniel',
    context: msg`Parent of a child with severe allergies`,
  },
  {
    quote: msg`Appointments, prescriptions and every lab result in one calendar and one list — and a notification the moment anyone opens my emergency information. I finally feel in charge of my own records.`,
    name: 'Margaret',
    context: msg`Managing a chronic condition`,
  },
];

/**
 * SPEC §2 / §9: a testimonial carousel with 3 slides and 3 dots. It never advances on its own,
 * so nothing moves while someone is reading (WCAG 2.2.2); the buttons and the arrow keys change
 * the slide, and the change is announced politely.
 */
export function TestimonialCarousel({ items = testimonials }: { items?: readonly Testimonial[] }) {
  const { t } = useLingui();
  const [active, setActive] = useState(0);
  const headingId = useId();
  const count = items.length;
  const show = (index: number) => setActive(((index % count) + count) % count);

  // The arrow pointing to where the line of dots begins goes back: left in English, right in Arabic.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const rtl = event.currentTarget.closest('[dir]')?.getAttribute('dir') === 'rtl';
    show(active + ((event.key === 'ArrowRight') !== rtl ? 1 : -1));
  };

  return (
    <section aria-labelledby={headingId} aria-roledescription="carousel" className="mx-auto max-w-3xl">
      <h2 id={headingId} className="text-center text-3xl font-bold tracking-tight text-slate-900">
        <Trans>How families use Kinchart</Trans>
      </h2>
      <p className="mt-2 text-center text-sm text-slate-700">
        <Trans>Illustrative stories of everyday use.</Trans>
      </p>
      <div aria-live="polite" className="mt-8">
        {items.map((item, index) => {
          const position = index + 1;
          const quote = t(item.quote);
          return (
            // A <div>, not <figure>: ARIA allows role="group" with a slide description on a div only.
            <div
              key={item.name}
              role="group"
              aria-roledescription="slide"
              aria-label={t({ message: `${position} of ${count}`, comment: 'The testimonial slide shown, as in "1 of 3"' })}
              hidden={index !== active}
              className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200"
            >
              <blockquote className="text-lg leading-relaxed text-slate-800">
                <p>{t({ message: `“${quote}”`, comment: "A quotation in this language's quotation marks" })}</p>
              </blockquote>
              <p className="mt-6">
                <span className="block font-semibold text-slate-900">{item.name}</span>
                <span className="block text-sm text-slate-700">{t(item.context)}</span>
              </p>
            </div>
          );
        })}
      </div>
      <div role="group" aria-label={t`Choose a testimonial`} onKeyDown={onKeyDown} className="mt-6 flex items-center justify-center gap-3">
        <button
          type="button"
          onClick={() => show(active - 1)}
          aria-label={t`Previous story`}
          className="inline-flex size-10 items-center justify-center rounded-full border border-slate-300 bg-white text-xl text-slate-800 hover:bg-slate-100"
        >
          <span aria-hidden="true">‹</span>
        </button>
        {items.map((item, index) => {
          const position = index + 1;
          return (
            <button
              key={item.name}
              type="button"
              onClick={() => show(index)}
              aria-label={t`Show testimonial ${position}`}
              aria-current={index === active ? 'true' : undefined}
              className="group inline-flex size-8 items-center justify-center rounded-full"
            >
              <span
                aria-hidden="true"
                className={`block size-3 rounded-full border-2 border-brand-700 ${index === active ? 'bg-brand-700' : 'bg-white group-hover:bg-brand-200'}`}
              />
            </button>
          );
        })}
        <button
          type="button"
          onClick={() => show(active + 1)}
          aria-label={t`Next story`}
          className="inline-flex size-10 items-center justify-center rounded-full border border-slate-300 bg-white text-xl text-slate-800 hover:bg-slate-100"
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
    </section>
  );
}
