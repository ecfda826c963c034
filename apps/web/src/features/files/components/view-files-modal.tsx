import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useId, useRef, useState } from 'react';
import type { ShareLink } from '@kinchart/shared/files';
import { SHARE_LINK_MAX_FILES, SHARE_LINK_TTL_HOURS, formatFileSize } from '@kinchart/shared/files';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../lib/toast';
import { useCreateShareLink } from '../api/create-share-link';
import { useFiles } from '../api/get-files';
import { useRevokeShareLink } from '../api/revoke-share-link';
import { formatDate } from '../utils/format';
import { recordName } from '../utils/record-list';

export interface ViewFilesModalProps {
  open: boolean;
  onClose: () => void;
}

/**
 * SPEC §2 View Files modal: every file with name, size and created date and a checkbox; for the
 * selected files a time-limited link (issue 4: opens them without signing in for 24 hours, can be
 * revoked) with its QR code, 200 px wide (SPEC §9).
 */
export function ViewFilesModal({ open, onClose }: ViewFilesModalProps) {
  // Mounted only while open, so every opening starts with nothing selected and no link.
  return open ? <ViewFilesDialog onClose={onClose} /> : null;
}

interface MadeLink {
  link: ShareLink;
  fileIds: string[];
}

function ViewFilesDialog({ onClose }: { onClose: () => void }) {
  const ids = useId();
  const files = useFiles();
  const createLink = useCreateShareLink();
  const revokeLink = useRevokeShareLink();
  const [selected, setSelected] = useState<string[]>([]);
  const [made, setMade] = useState<MadeLink | null>(null);
  const linkSectionRef = useRef<HTMLElement>(null);
  const linkHeadingRef = useRef<HTMLHeadingElement>(null);

  // A new link appears under the list: show all of it and start reading at its heading.
  useEffect(() => {
    if (!made) return;
    linkHeadingRef.current?.focus({ preventScroll: true });
    linkSectionRef.current?.scrollIntoView?.({ block: 'end' });
  }, [made]);

  const toggle = (id: string, checked: boolean) =>
    setSelected((current) => (checked ? [...current.filter((x) => x !== id), id] : current.filter((x) => x !== id)));

  const onCreate = async () => {
    if (selected.length === 0) return;
    try {
      const link = await createLink.mutateAsync({ fileIds: selected });
      setMade({ link, fileIds: selected });
    } catch (error) {
      console.error('Error generating download links:', error);
      notify.error('Error generating download links');
    }
  };

  const onCopy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.link.url);
      notify.success('Link copied to clipboard!');
    } catch {
      notify.error('Could not copy the link; select it and copy it instead');
    }
  };

  const onRevoke = async () => {
    if (!made) return;
    try {
      await revokeLink.mutateAsync(made.link.id);
      setMade(null);
      notify.success('Link revoked');
    } catch (error) {
      console.error('Error revoking link:', error);
      notify.error('Could not revoke the link. Please try again.');
    }
  };

  const list = files.data ?? [];
  const tooMany = selected.length > SHARE_LINK_MAX_FILES;
  const selectionChanged =
    made !== null && (made.fileIds.length !== selected.length || made.fileIds.some((id) => !selected.includes(id)));

  const footer = (
    <>
      <Button variant="secondary" onClick={onClose}>
        Close
      </Button>
      <Button
        onClick={() => void onCreate()}
        disabled={selected.length === 0 || tooMany || createLink.isPending || (made !== null && !selectionChanged)}
      >
        {createLink.isPending ? 'Creating link...' : 'Create share link'}
      </Button>
    </>
  );

  return (
    <Modal open onClose={onClose} title="View Files" size="lg" footer={footer}>
      <div className="flex flex-col gap-5">
        <p className="text-sm text-slate-700">
          Select files to make a link that opens them without signing in. The link works for {SHARE_LINK_TTL_HOURS} hours
          unless you revoke it, and you get a notification when it is opened.
        </p>

        {files.isPending ? (
          <p className="text-slate-700">Loading files...</p>
        ) : files.isError ? (
          <p className="text-red-700">Your files could not be loaded.</p>
        ) : list.length === 0 ? (
          <p className="text-slate-700">No records yet</p>
        ) : (
          <fieldset className="min-w-0">
            <legend className="mb-2 text-sm font-medium text-slate-800">Files</legend>
            <ul className="max-h-72 divide-y divide-slate-200 overflow-y-auto rounded-lg border border-slate-200">
              {list.map((file) => {
                const checkboxId = `${ids}-${file.id}`;
                const name = recordName(file);
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
                        {formatFileSize(file.metadata.size)} · Created {formatDate(file.created_at)}
                      </p>
                    </div>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        )}

        {tooMany ? (
          <p className="text-sm font-medium text-red-700">Select at most {SHARE_LINK_MAX_FILES} files for one link.</p>
        ) : null}

        {made ? (
          <section ref={linkSectionRef} aria-labelledby={`${ids}-link`} className="flex flex-col items-center gap-3 rounded-xl bg-slate-50 p-4 text-center">
            <h3 id={`${ids}-link`} ref={linkHeadingRef} tabIndex={-1} className="font-semibold text-slate-900 focus:outline-none">
              Link to {made.fileIds.length === 1 ? '1 file' : `${made.fileIds.length} files`}
            </h3>
            <QRCodeSVG
              value={made.link.url}
              size={200}
              level="M"
              marginSize={2}
              role="img"
              aria-label="QR code that opens the selected files"
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
            <p className="text-sm text-slate-700">Expires {new Date(made.link.expires_at).toLocaleString()}</p>
            {selectionChanged ? (
              <p className="text-sm text-slate-700">The selection has changed; make a new link to share the files selected now.</p>
            ) : null}
            <div className="flex flex-wrap justify-center gap-2">
              <Button variant="secondary" size="sm" onClick={() => void onCopy()}>
                Copy link
              </Button>
              <Button variant="danger" size="sm" onClick={() => void onRevoke()} disabled={revokeLink.isPending}>
                {revokeLink.isPending ? 'Revoking...' : 'Revoke'}
              </Button>
            </div>
          </section>
        ) : null}
      </div>
    </Modal>
  );
}
