import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { LanguageSelect } from '../../i18n/language-select';

const footerLinks = [
  { to: '/about', label: msg`About` },
  { to: '/howitworks', label: msg`How It Works` },
  { to: '/faq', label: msg`FAQ` },
  { to: '/privacy-policy', label: msg`Privacy Policy` },
  { to: '/terms-of-service', label: msg`Terms of Service` },
];

/** Shown on every page except the emergency view (SPEC §2 Layout). */
export function SiteFooter() {
  const { t } = useLingui();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 text-sm text-slate-700 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
        <p>
          <Trans>© {year} Kinchart. Your health records, simplified.</Trans>
        </p>
        <nav aria-label={t`Footer`}>
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-slate-700 underline-offset-4 hover:text-brand-800 hover:underline">
                  {t(link.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {/* Issue 35: the language can be changed from every page, signed in or not. */}
        <LanguageSelect />
      </div>
    </footer>
  );
}
