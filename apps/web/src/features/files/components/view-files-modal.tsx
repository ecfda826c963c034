import { t } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { QRCodeSVG } from 'qrcode.react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ShareLink } from '@kinchart/shared/files';
import { SHARE_LINK_MAX_FILES, SHARE_LINK_TTL_HOURS } from '@kinchart/shared/files';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../lib/toast';
import { useCreateShareLink } from '../api/create-share-link';
import { useFiles } from '../api/get-files';
import { useRevokeShareLink } from '../api/revoke-share-link';
import { activeIntlLocale, fileSize, formatDate } from '../utils/format';
import { recordName } from '../utils/record-list';

export interface ViewFilesModalProps {
  open: boolean;
  onClose: () => void;
}

/**
 * SPEC §2 View Files modal: every file with name, size and created date and a checkbox; as soon as
 * files are selected, a QR code (200 px wide, SPEC §9) and a link that open them — the first selected
 * file first — without signing in. The link is time-limited and revocable (decision 0006); a link the
 * selection no longer matches is revoked, so at most one link per opening of the modal stays live.
 */
export function ViewFilesModal({ open, onClose }: ViewFilesModalProps) {
  // Mounted only while open, so every opening starts with nothing selected and no link.
  return open ? <ViewFilesDialog onClose={onClose} /> : null;
}

interface MadeLink {
  link: ShareLink;
  fileIds: string[];
}

/** How long the selection has to rest before a link is made for it (ticking several boxes makes one link). */
const SELECTION_SETTLE_MS = 300;

/**
 * The link that follows the selection: made once the selection rests, replaced (and the old one
 * revoked) when it changes, revoked when nothing is selected. A link that arrives after the
 * selection moved on, or after the modal closed, is revoked unseen. `make` makes one by hand again
 * after a failure or a revoke.
 */
function useSelectionLink(selected: string[], allowed: boolean) {
  const createLink = useCreateShareLink();
  const revokeLink = useRevokeShareLink();
  const [made, setMade] = useState<MadeLink | null>(null);
  const [status, setStatus] = useState<'idle' | 'making' | 'stopped'>('idle');
  const live = useRef<MadeLink | null>(null);
  const generation = useRef(0);
  const { mutateAsync: create } = createLink;
  const { mutateAsync: revoke } = revokeLink;

  const retire = useCallback(
    (link: ShareLink) => void revoke(link.id).catch((error: unknown) => console.error('Error revoking link:', error)),
    [revoke],
  );

  const make = useCallback(
    async (fileIds: string[]) => {
      const mine = ++generation.current;
      setStatus('making');
      try {
        const link = await create({ fileIds });
        if (mine !== generation.current) return retire(link);
        if (live.current) retire(live.current.link);
        live.current = { link, fileIds };
        setMade(live.current);
        setStatus('idle');
      } catch (error) {
        if (mine !== generation.current) return;
        console.error('Error generating download links:', error);
        notify.error(t`Error generating download links`);
        setStatus('stopped');
      }
    },
    [create, retire],
  );

  // `selected` is a new array only when a box was ticked or cleared.
  useEffect(() => {
    if (selected.length > 0 && allowed) {
      const timer = setTimeout(() => void make(selected), SELECTION_SETTLE_MS);
      return () => clearTimeout(timer);
    }
    generation.current += 1;
    if (live.current) retire(live.current.link);
    live.current = null;
    setMade(null);
    setStatus('idle');
    return undefined;
  }, [selected, allowed, make, retire]);

  // Closing the modal keeps the link shown last (it may have been scanned already) and drops any
  // link still being made.
  useEffect(
    () => () => {
      generation.current += 1;
    },
    [],
  );

  const revokeNow = async () => {
    const current = live.current;
    if (!current) return;
    try {
      await revoke(current.link.id);
      live.current = null;
      setMade(null);
      setStatus('stopped');
      notify.success(t`Link revoked`);
    } catch (error) {
      console.error('Error revoking link:', error);
      notify.error(t`Could not revoke the link. Please try again.`);
    }
  };

  return { made, making: status === 'making', stopped: status === 'stopped', make, revokeNow, revoking: revokeLink.isPending };
}

function ViewFilesDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const ids = useId();
  const files = useFiles();
  const [selected, setSelected] = useState<string[]>([]);
  const tooMany = selected.length > SHARE_LINK_MAX_FILES;
  const { made, making, stopped, make, revokeNow, revoking } = useSelectionLink(selected, !tooMany);
  // The link appears under the list without scrolling the dialog: the checkbox just ticked, which
  // has the focus, stays in view; the status line below the list says when the link is ready.

  const toggle = (id: string, checked: boolean) =>
    setSelected((current) => (checked ? [...current.filter((x) => x !== id), id] : current.filter((x) => x !== id)));

  const onCopy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.link.url);
      notify.success(t`Link copied to clipboard!`);
    } catch {
      notify.error(t`Could not copy the link; select it and copy it instead`);
    }
  };

  const expires = made ? new Date(made.link.expires_at).toLocaleString(activeIntlLocale()) : '';
  const linkedCount = made ? made.fileIds.length : 0;
  const stale = made !== null && made.fileIds.join('\n') !== selected.join('\n');

  const footer = (
    <>
      <Button variant="secondary" onClick={onClose}>
        <Trans>Close</Trans>
      </Button>
      {stopped && selected.length > 0 && !tooMany ? (
        <Button onClick={() => void make(selected)}>
          <Trans>Create share link</Trans>
        </Button>
      ) : null}
    </>
  );

  return (
    <Modal open onClose={onClose} title={t`View Files`} size="lg" footer={footer}>
      <div className="flex flex-col gap-5">
        <p className="text-sm text-slate-700">
          <Plural
            value={SHARE_LINK_TTL_HOURS}
            one="Select files to get a link and QR code that open them without signing in. The link works for # hour unless you revoke it, and you get a notification when it is opened."
            other="Select files to get a link and QR code that open them without signing in. The link works for # hours unless you revoke it, and you get a notification when it is opened."
          />
        </p>

        <QueryState
          query={files}
          loading={t`Loading files...`}
          error={t`Your files could not be loaded.`}
          isEmpty={(list) => list.length === 0}
          empty={
            <p className="text-slate-700">
              <Trans>No records yet</Trans>
            </p>
          }
        >
          {(list) => (
            <fieldset className="min-w-0">
              <legend className="mb-2 text-sm font-medium text-slate-800">
                <Trans>Files</Trans>
              </legend>
              <ul className="max-h-72 divide-y divide-slate-200 overflow-y-auto rounded-lg border border-slate-200">
                {list.map((file) => {
                  const checkboxId = `${ids}-${file.id}`;
                  const name = recordName(file);
                  const size = fileSize(file.metadata.size);
                  const created = formatDate(file.created_at);
                  return (
                    <li key={file.id} className="flex items-start gap-3 px-3 py-2.5">
                      <input
                        id={checkboxId}
                        type="checkbox"
                        checked={selected.includes(file.id)}
                        onChange={(event) => toggle(file.id, event.target.checked)}
                        aria-describedby={`${checkboxId}-meta`}
                        className="mt-1 size-5 shrink-0 accent-brand-700"
                      />
                      <div className="min-w-0 flex-1">
                        <label htmlFor={checkboxId} className="block font-medium break-words text-slate-900">
                          {name}
                        </label>
                        <p id={`${checkboxId}-meta`} className="text-sm text-slate-700">
                          <Trans>
                            {size} · Created {created}
                          </Trans>
                        </p>
                      </div>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          )}
        </QueryState>

        {tooMany ? (
          <p className="text-sm font-medium text-red-700">
            <Plural value={SHARE_LINK_MAX_FILES} one="Select at most # file for one link." other="Select at most # files for one link." />
          </p>
        ) : null}

        {/* One live region: seen while a link is being made, heard once it is ready. */}
        <p role="status" className={making ? 'text-sm text-slate-700' : 'sr-only'}>
          {making ? t`Making a link...` : made ? t`The link and its QR code are ready below.` : ''}
        </p>

        {made ? (
          <section aria-labelledby={`${ids}-link`} className="flex flex-col items-center gap-3 rounded-xl bg-slate-50 p-4 text-center">
            <h3 id={`${ids}-link`} className="font-semibold text-slate-900">
              <Plural value={linkedCount} one="Link to # file" other="Link to # files" />
            </h3>
            <QRCodeSVG
              value={made.link.url}
              size={200}
              level="M"
              marginSize={2}
              role="img"
              aria-label={t`QR code that opens the selected files`}
              className="rounded-md bg-white"
            />
            <a
              href={made.link.url}
              target="_blank"
              rel="noopener noreferrer"
              className="max-w-full text-sm font-medium break-all text-brand-700 underline"
            >
              {made.link.url}
            </a>
            <p className="text-sm text-slate-700">
              <Trans>Expires {expires}</Trans>
            </p>
            {stale && !making ? (
              <p className="text-sm text-slate-700">
                <Trans>This link is for the files selected before.</Trans>
              </p>
            ) : null}
            <div className="flex flex-wrap justify-center gap-2">
              <Button variant="secondary" size="sm" onClick={() => void onCopy()}>
                <Trans>Copy link</Trans>
              </Button>
              <Button variant="danger" size="sm" onClick={() => void revokeNow()} disabled={revoking}>
                {revoking ? t`Revoking...` : t`Revoke`}
              </Button>
            </div>
          </section>
        ) : null}
      </div>
    </Modal>
  );
}
