import type { ReactNode } from 'react';

/** The product's name, the same in every language (a proper name). */
const BRAND_NAME = 'Kinchart';

/** Sets the document title for the current page. React 19 hoists <title> into <head>. */
export function DocumentTitle({ title }: { title: string }) {
  return <title>{title === BRAND_NAME ? title : `${title} · ${BRAND_NAME}`}</title>;
}

export interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
  /** Buttons or links shown beside the title on wide screens, under it on phones. */
  actions?: ReactNode;
}

/** The page's single h1, its optional subtitle and actions, and the matching document title. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <DocumentTitle title={title} />
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {subtitle ? <p className="mt-1 text-slate-700">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
