import { Link } from 'react-router';

/** The product's name: a proper name, the same in every language. */
export const BRAND_NAME = 'Kinchart';

/** The Kinchart wordmark; it leads home when signed out and to /dashboard when signed in. */
export function BrandLink({ to, tone = 'dark' }: { to: string; tone?: 'dark' | 'light' }) {
  return (
    <Link
      to={to}
      className={`inline-flex items-center gap-2 rounded-lg text-xl font-bold tracking-tight ${
        tone === 'dark' ? 'text-white' : 'text-brand-900'
      }`}
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="7" fill={tone === 'dark' ? '#ffffff' : '#3730a3'} />
        <path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill={tone === 'dark' ? '#3730a3' : '#ffffff'} />
      </svg>
      {BRAND_NAME}
    </Link>
  );
}
