import { Trans } from '@lingui/react/macro';

/** The 'Loading...' state while the authentication check runs (SPEC §2 Layout, §4). */
export function PageLoading() {
  return (
    <p role="status" className="py-16 text-center text-lg text-slate-700">
      <Trans>Loading...</Trans>
    </p>
  );
}
