import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { DocumentTitle } from '../../../components/ui/page-header';

export interface AuthShellProps {
  title: string;
  intro: string;
  children: ReactNode;
  /** Links under the form. */
  footer: ReactNode;
}

/** The sign-up and login screens: the product's tagline beside a form card (SPEC §1). */
export function AuthShell({ title, intro, children, footer }: AuthShellProps) {
  const { t } = useLingui();
  return (
    <div className="mx-auto grid max-w-5xl overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 md:grid-cols-2">
      <DocumentTitle title={title} />
      <section aria-label={t`About Kinchart`} className="on-dark flex flex-col justify-center gap-4 bg-brand-900 px-8 py-10 text-white">
        <p className="text-3xl font-bold tracking-tight">
          <Trans>Empowering Patients</Trans>
        </p>
        <p className="text-lg text-brand-100">
          <Trans>Your health records, simplified. Access and manage your medical info.</Trans>
        </p>
        <ul className="mt-2 hidden list-disc space-y-1 ps-5 text-brand-100 md:block">
          <li>
            <Trans>One profile for you, your family and your pets</Trans>
          </li>
          <li>
            <Trans>Medical files encrypted and always at hand</Trans>
          </li>
          <li>
            <Trans>A PIN-protected emergency QR code</Trans>
          </li>
        </ul>
      </section>
      <div className="px-6 py-8 sm:px-10 sm:py-10">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
        <p className="mt-2 text-slate-700">{intro}</p>
        <div className="mt-6">{children}</div>
        <div className="mt-6 flex flex-col gap-2 text-sm text-slate-700">{footer}</div>
      </div>
    </div>
  );
}

/** A link under an authentication form. */
export function AuthFooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
      {children}
    </Link>
  );
}
