import { useId } from 'react';
import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../lib/toast';

const FILE_NAME = 'kinchart-recovery-codes.txt';

function download(codes: readonly string[]) {
  const title = translate`Kinchart recovery codes`;
  const explanation = translate`Each code signs you in once instead of your authenticator app or passkey.`;
  const text = `${title}\n${explanation}\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = FILE_NAME;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A new set of recovery codes, shown this once (docs/decisions/0026): the server keeps only their
 * hashes. Copy, download or print them, then leave.
 */
export function RecoveryCodesPanel({ codes, intro, onDone }: { codes: readonly string[]; intro: string; onDone: () => void }) {
  const { t } = useLingui();
  const headingId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify.success(t`Recovery codes copied to clipboard!`);
    } catch {
      notify.error(t`The codes could not be copied. Select them and copy them by hand.`);
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h4 id={headingId} className="text-base font-semibold text-slate-900">
        <Trans>Save your recovery codes</Trans>
      </h4>
      <p className="text-sm text-slate-800">{intro}</p>
      <p className="text-sm text-slate-800">
        <Trans>
          If you lose your phone, each code signs you in once instead of a code from the app. Keep them somewhere safe — in a password
          manager, or printed and put away. <strong>They are shown only now.</strong>
        </Trans>
      </p>
      <ol
        aria-label={t`Recovery codes`}
        className="grid grid-cols-1 gap-2 font-mono text-sm text-slate-900 min-[360px]:grid-cols-2 sm:text-base"
      >
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-white px-2 py-2 text-center whitespace-nowrap ring-1 ring-amber-200">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          <Trans>Copy codes</Trans>
        </Button>
        <Button variant="secondary" onClick={() => download(codes)}>
          <Trans>Download codes</Trans>
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          <Trans>Print codes</Trans>
        </Button>
      </div>
      <div>
        <Button onClick={onDone}>
          <Trans>I have saved my codes</Trans>
        </Button>
      </div>
    </section>
  );
}
