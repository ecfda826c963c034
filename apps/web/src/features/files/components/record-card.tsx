import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { MedicalFile } from '@kinchart/shared/files';
import { FILE_NAME_MAX, renameFileSchema } from '@kinchart/shared/files';
import { Button, buttonClassName } from '../../../components/ui/button';
import { inputClassName } from '../../../components/ui/field';
import { useRenameFile } from '../api/rename-file';
import { useApplySuggestion, useDismissSuggestion } from '../api/file-suggestion';
import { translateMessageText } from '../../../i18n/message-text';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { formatDate, orNotProvided } from '../utils/format';
import { labResultsPath, recordName } from '../utils/record-list';
import { PencilIcon, TrashIcon } from './icons';

export interface RecordCardProps {
  file: MedicalFile;
  onDelete: (file: MedicalFile) => void;
  /** Whose record it is (DESIGN §11), shown when the user has more than one person. */
  personName?: string | null;
  /** False for a viewer of a shared person: no rename, no delete, no suggestion. */
  canEdit?: boolean;
  /** View Records' content search: the line of the file that matched (with its marks) and its page. */
  match?: ReactNode;
}

/** "Reading text…" while the text is read; the reason when it failed or is not read; nothing once read. */
function textNote(file: MedicalFile): string {
  switch (file.text_status) {
    case 'pending':
    case 'processing':
      return t`Reading text…`;
    case 'failed':
    case 'unsupported':
      return file.text_reason ? translateMessageText(file.text_reason) : '';
    case 'done':
      return '';
  }
}

const hasSuggestion = (file: MedicalFile) =>
  file.suggestion !== null && (file.suggestion.record_date ?? file.suggestion.provider_name ?? file.suggestion.visit_reason) !== null;

/**
 * Issue 33 (docs/decisions/0049): what the file's text suggests for its record — "Suggested: date ·
 * provider · reason" with Apply and Dismiss. Nothing changes until one is clicked.
 */
function SuggestionPanel({ file, name, onSettled }: { file: MedicalFile; name: string; onSettled: () => void }) {
  const { t } = useLingui();
  const textId = useId();
  const apply = useApplySuggestion();
  const dismiss = useDismissSuggestion();
  const busy = apply.isPending || dismiss.isPending;
  const s = file.suggestion!;
  const parts = [s.record_date ? formatDate(s.record_date) : null, s.provider_name, s.visit_reason].filter((p): p is string => !!p);
  const suggested = parts.join(' · ');

  const run = async (action: 'apply' | 'dismiss') => {
    try {
      if (action === 'apply') await apply.mutateAsync({ id: file.id });
      else await dismiss.mutateAsync({ id: file.id });
      // The panel is gone: focus stays on the card rather than falling to the page.
      onSettled();
    } catch (error) {
      notify.error(
        serverMessage(error) ?? (action === 'apply' ? t`Failed to apply the suggestion.` : t`Failed to dismiss the suggestion.`),
      );
    }
  };

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm">
      <p id={textId} className="break-words text-slate-900">
        <Trans>
          <span className="font-semibold">Suggested:</span> {suggested}
        </Trans>
      </p>
      <div className="flex gap-2">
        <Button
          size="sm"
          disabled={busy}
          aria-label={t`Apply suggestion to ${name}`}
          aria-describedby={textId}
          onClick={() => void run('apply')}
        >
          <Trans>Apply</Trans>
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={busy}
          aria-label={t`Dismiss suggestion for ${name}`}
          onClick={() => void run('dismiss')}
        >
          <Trans>Dismiss</Trans>
        </Button>
      </div>
    </div>
  );
}

const iconButton =
  'inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60';

/**
 * One record on View Records (SPEC §2): date, rename and delete icons, name, Date, Provider,
 * Location, Reason and View Document. Rename is inline (SPEC §4: view → edit → Save or Cancel).
 */
export function RecordCard({ file, onDelete, personName = null, canEdit = true, match }: RecordCardProps) {
  const { t } = useLingui();
  const ids = useId();
  const name = recordName(file);
  const rename = useRenameFile();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const inputRef = useRef<HTMLInputElement>(null);
  const renameButtonRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (editing) {
      inputRef.current?.select();
    } else if (returnFocus.current) {
      returnFocus.current = false;
      renameButtonRef.current?.focus();
    }
  }, [editing]);

  const startEditing = () => {
    setDraft(name);
    setEditing(true);
  };

  const stopEditing = () => {
    returnFocus.current = true;
    setEditing(false);
  };

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    // SPEC §5 Rename: a non-empty trimmed name, otherwise an alert.
    const parsed = renameFileSchema.safeParse({ newName: draft });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]?.message;
      window.alert(issue ? translateMessageText(issue) : t`File name cannot be empty`);
      inputRef.current?.focus();
      return;
    }
    if (parsed.data.newName === name) {
      stopEditing();
      return;
    }
    try {
      await rename.mutateAsync({ id: file.id, newName: parsed.data.newName });
      stopEditing();
    } catch (error) {
      console.error('Error renaming file:', error);
      window.alert(t`Failed to rename file. Please try again.`);
    }
  };

  const onInputKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      stopEditing();
    }
  };

  const titleId = `${ids}-title`;
  const uploaded = formatDate(file.created_at);

  return (
    <article aria-labelledby={titleId} className="flex h-full flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start justify-between gap-2">
        {/* The card's own date is when it was uploaded; the visit date is the Date row below. */}
        <p className="pt-2 text-sm font-medium text-brand-800">
          <Trans>Uploaded {uploaded}</Trans>
        </p>
        {canEdit ? (
          <div className="flex shrink-0 gap-1">
            <button
              ref={renameButtonRef}
              type="button"
              onClick={startEditing}
              disabled={editing}
              aria-label={t`Rename ${name}`}
              title={t`Rename`}
              className={iconButton}
            >
              <PencilIcon />
            </button>
            <button
              type="button"
              onClick={() => onDelete(file)}
              aria-label={t`Delete ${name}`}
              title={t`Delete`}
              className={`${iconButton} text-red-700 hover:bg-red-50`}
            >
              <TrashIcon />
            </button>
          </div>
        ) : null}
      </div>

      {editing ? (
        <form onSubmit={(event) => void save(event)} className="flex flex-col gap-2" noValidate>
          {/* The title stays in the document for the article's name while the form is open. */}
          <h2 id={titleId} className="sr-only">
            {name}
          </h2>
          <label htmlFor={`${ids}-name`} className="text-sm font-medium text-slate-800">
            <Trans>New name for {name}</Trans>
          </label>
          <input
            ref={inputRef}
            id={`${ids}-name`}
            value={draft}
            maxLength={FILE_NAME_MAX}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onInputKeyDown}
            disabled={rename.isPending}
            autoComplete="off"
            className={inputClassName}
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={rename.isPending}>
              {rename.isPending ? t`Saving...` : t`Save`}
            </Button>
            <Button variant="secondary" size="sm" onClick={stopEditing} disabled={rename.isPending}>
              <Trans>Cancel</Trans>
            </Button>
          </div>
        </form>
      ) : (
        <h2 id={titleId} className="text-lg leading-snug font-semibold break-words text-slate-900">
          {name}
        </h2>
      )}

      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {personName ? (
          <>
            <dt className="font-medium text-slate-700">
              <Trans>Person</Trans>
            </dt>
            <dd className="font-semibold break-words text-slate-900">{personName}</dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-700">
          <Trans>Date</Trans>
        </dt>
        <dd className="text-slate-900">{formatDate(file.record_date)}</dd>
        <dt className="font-medium text-slate-700">
          <Trans>Provider</Trans>
        </dt>
        <dd className="break-words text-slate-900">{orNotProvided(file.provider_name)}</dd>
        <dt className="font-medium text-slate-700">
          <Trans>Location</Trans>
        </dt>
        <dd className="break-words text-slate-900">{orNotProvided(file.visit_location)}</dd>
        <dt className="font-medium text-slate-700">
          <Trans>Reason</Trans>
        </dt>
        <dd className="break-words text-slate-900">{orNotProvided(file.visit_reason)}</dd>
      </dl>

      {match}

      {/* Issue 33: while the file's text is read, and why it could not be (a polite live region, always present). */}
      <p role="status" className="text-sm text-slate-600 empty:hidden">
        {textNote(file)}
      </p>

      {canEdit && hasSuggestion(file) ? (
        <SuggestionPanel file={file} name={name} onSettled={() => renameButtonRef.current?.focus()} />
      ) : null}

      <div className="mt-auto flex flex-col gap-2 pt-1">
        {/* Issue 34: once the text is read, the lab results found in it, to review and add. */}
        {file.text_status === 'done' ? (
          <Link to={labResultsPath(file.id)} aria-describedby={titleId} className={buttonClassName('secondary', 'sm', 'w-full')}>
            <Trans>Lab results</Trans>
          </Link>
        ) : null}
        <a
          href={file.url}
          target="_blank"
          rel="noopener noreferrer"
          aria-describedby={`${titleId} ${ids}-new-tab`}
          className={buttonClassName('secondary', 'sm', 'w-full')}
        >
          <Trans>View Document</Trans>
        </a>
        <span id={`${ids}-new-tab`} hidden>
          <Trans>opens in a new tab</Trans>
        </span>
      </div>
    </article>
  );
}
