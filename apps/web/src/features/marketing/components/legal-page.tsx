import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/ui/page-header';

export interface LegalSection {
  heading: string;
  body: ReactNode;
}

/** SPEC §2: the privacy and terms pages carry template text. */
export function LegalPage({ title, intro, sections }: { title: string; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <article className="mx-auto max-w-3xl rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
      <PageHeader title={title} />
      <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
        <Trans>
          This is template text. It describes how Kinchart is built to work and will be replaced by the final, legally reviewed version.
        </Trans>
      </p>
      <div className="mt-6 text-slate-700">{intro}</div>
      {sections.map((section) => (
        <section key={section.heading} className="mt-8">
          <h2 className="text-xl font-semibold text-slate-900">{section.heading}</h2>
          <div className="mt-2 space-y-3 text-slate-700">{section.body}</div>
        </section>
      ))}
    </article>
  );
}
