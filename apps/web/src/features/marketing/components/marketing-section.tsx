import type { ReactNode } from 'react';

/** A full-width band of a marketing page with a centred, readable column. */
export function MarketingSection({
  children,
  tone = 'white',
  labelledBy,
  id,
}: {
  children: ReactNode;
  tone?: 'white' | 'tint' | 'dark';
  labelledBy?: string;
  id?: string;
}) {
  const tones = {
    white: 'bg-white text-slate-900',
    tint: 'bg-slate-50 text-slate-900',
    dark: 'on-dark bg-brand-900 text-white',
  };
  return (
    <section id={id} aria-labelledby={labelledBy} className={tones[tone]}>
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">{children}</div>
    </section>
  );
}

/** The page hero of the secondary marketing pages: the page's h1 and a lead paragraph. */
export function MarketingHero({ title, lead }: { title: string; lead: ReactNode }) {
  return (
    <div className="on-dark bg-brand-900 text-white">
      <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20 lg:px-8">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{title}</h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-brand-100">{lead}</p>
      </div>
    </div>
  );
}
