import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState, type ChangeEvent, type DragEvent, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import type { MedicalFile } from '@kinchart/shared/files';
import { FILE_INPUT_ACCEPT, FILE_NAME_MAX, stripExtension, uploadLimitMb } from '@kinchart/shared/files';
import { Button } from '../../../components/ui/button';
import { Field, inputClassName } from '../../../components/ui/field';
import { PersonSelect } from '../../../components/ui/person-select';
import { useForPerson } from '../../../lib/person-choice';
import { useUploadLimit } from '../../../lib/queries/client-config';
import type { UploadProgress } from '../../../lib/upload-client';
import { useUploadQueue, type UploadResults, type UploadRow, type UploadRowStatus } from '../hooks/use-upload-queue';
import { activeIntlLocale, fileSize, localToday } from '../utils/format';

interface DetailsValues {
  customName: string;
  customDate: string;
  providerName: string;
  visitLocation: string;
  visitReason: string;
}

const EMPTY: DetailsValues = { customName: '', customDate: '', providerName: '', visitLocation: '', visitReason: '' };

export interface UploadRecordFormProps {
  /** SPEC §4 Upload: the parent is told of each uploaded file. */
  onUploaded?: (file: MedicalFile) => void;
  /** After Upload File has gone through every chosen file. */
  onFinished?: (results: UploadResults) => void;
  /** New files were chosen or an upload begins: an earlier result no longer applies. */
  onStarted?: () => void;
  /** Level of the 'Record Details' heading, so it fits under the page's or the dialog's title. */
  headingLevel?: 2 | 3;
  /** The person the "For" choice starts on, before the dashboard's choice (e.g. View Records' filter). */
  personId?: string | null;
}

function percent(progress: UploadProgress | null): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.min(100, Math.round((progress.loaded / progress.total) * 100));
}

const STATUS_TEXT: Record<UploadRowStatus, MessageDescriptor> = {
  ready: msg({ message: 'Ready', context: 'upload status' }),
  'too-large': msg({ message: 'Not sent', context: 'upload status' }),
  queued: msg({ message: 'Waiting', context: 'upload status' }),
  uploading: msg({ message: 'Uploading', context: 'upload status' }),
  done: msg({ message: 'Uploaded', context: 'upload status' }),
  failed: msg({ message: 'Failed', context: 'upload status' }),
  cancelled: msg({ message: 'Cancelled', context: 'upload status' }),
};

/**
 * SPEC §2 Upload, §4, §5: a drop zone (drag and drop, or click / Enter / Space to pick) and the
 * 'Record Details' form. Several files may be chosen; each gets a row with its own progress and
 * result, and they are sent one after another with the same details (each named after its file
 * when there are several). A file over the server's limit (GET /api/config) is refused before
 * sending; Cancel aborts the request under way and the ones still waiting.
 */
export function UploadRecordForm({ onUploaded, onFinished, onStarted, headingLevel = 2, personId }: UploadRecordFormProps) {
  const { t } = useLingui();
  const ids = useId();
  const fileInputId = `${ids}-file`;
  const limitId = `${ids}-limit`;
  const fileInputRef = useRef<HTMLInputElement>(null);
  const limit = useUploadLimit();
  const queue = useUploadQueue({ limit, onUploaded, onStarted });
  const { busy } = queue;
  // DESIGN §11: whose record it is — the person chosen on the dashboard, else yourself.
  const forPerson = useForPerson(personId);
  const { register, handleSubmit, reset, setValue } = useForm<DetailsValues>({ defaultValues: EMPTY });
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const limitMb = limit === undefined ? 0 : uploadLimitMb(limit);
  const limitText = limit === undefined ? '' : t`Up to ${limitMb} MB per file.`;
  // One file being or about to be sent: the spec's single Record Name. Several: each record takes its file's name.
  const single = queue.active === 1;
  const showDetails = queue.active > 0;

  const choose = (chosen: readonly File[]) => {
    if (chosen.length === 0) return;
    const first = queue.choose(chosen);
    // SPEC §3: Record Name defaults to the name without extension, Visit Date to today.
    if (first) setValue('customName', stripExtension(first.name));
    setValue('customDate', localToday());
  };

  const onPicked = (event: ChangeEvent<HTMLInputElement>) => choose(Array.from(event.target.files ?? []));

  const onSubmit = handleSubmit(async (values) => {
    const results = await queue.upload({ ...values, personId: forPerson.value });
    if (!results) return;
    if (results.notUploaded === 0) {
      // SPEC §4: on success all fields and the file input reset (the rows stay as the results).
      reset(EMPTY);
      if (fileInputRef.current) fileInputRef.current.value = '';
    }
    onFinished?.(results);
  });

  return (
    <div className="flex flex-col gap-6">
      <DropZone disabled={busy} limitText={limitText} fileInput={fileInputRef} onFiles={choose} />

      <section aria-labelledby={`${ids}-details`} className="flex flex-col gap-4">
        <Heading id={`${ids}-details`} className="text-lg font-semibold text-slate-900">
          <Trans>Record Details</Trans>
        </Heading>
        <form onSubmit={onSubmit} noValidate aria-busy={busy} className="flex min-w-0 flex-col gap-4">
          <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
            <legend className="sr-only">
              <Trans>Record Details</Trans>
            </legend>
            {forPerson.showChoice ? (
              <PersonSelect
                label={t({ message: 'For', comment: 'Whose record this is: a person chosen from the list' })}
                people={forPerson.people}
                value={forPerson.value ?? ''}
                onChange={forPerson.onChange}
                containerClassName="sm:max-w-sm"
              />
            ) : null}
            <div className="flex flex-col gap-1">
              <label htmlFor={fileInputId} className="text-sm font-medium text-slate-800">
                <Trans>File</Trans>
              </label>
              <input
                ref={fileInputRef}
                id={fileInputId}
                name="file"
                type="file"
                multiple
                accept={FILE_INPUT_ACCEPT}
                onChange={onPicked}
                aria-describedby={limitText ? limitId : undefined}
                className="block w-full text-sm text-slate-800 file:me-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:py-2 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-100"
              />
              {limitText ? (
                <p id={limitId} className="text-sm text-slate-700">
                  {limitText} <Trans>You can choose several files at once.</Trans>
                </p>
              ) : null}
            </div>

            {queue.rows.length > 0 ? (
              <ul aria-label={t`Chosen files`} className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200">
                {queue.rows.map((row) => (
                  <FileRow key={row.key} row={row} />
                ))}
              </ul>
            ) : null}

            {showDetails ? (
              <div className="grid gap-4 sm:grid-cols-2">
                {single ? (
                  <Field label={t`Record Name`} maxLength={FILE_NAME_MAX} autoComplete="off" {...register('customName')} />
                ) : (
                  <p className="text-sm text-slate-700 sm:col-span-2">
                    <Trans>Each file is saved as its own record, named after the file.</Trans>
                  </p>
                )}
                <Field label={t`Visit Date`} type="date" {...register('customDate')} />
                <Field label={t`Healthcare Provider`} maxLength={200} autoComplete="off" {...register('providerName')} />
                <Field label={t`Visit Location`} maxLength={200} autoComplete="off" {...register('visitLocation')} />
                <div className="flex flex-col gap-1 sm:col-span-2">
                  <label htmlFor={`${ids}-reason`} className="text-sm font-medium text-slate-800">
                    <Trans>Reason for Visit</Trans>
                  </label>
                  <textarea id={`${ids}-reason`} rows={3} maxLength={1000} className={inputClassName} {...register('visitReason')} />
                </div>
              </div>
            ) : null}
          </fieldset>

          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={queue.sendable === 0 || busy} className="w-full sm:w-auto">
              {busy ? t`Uploading...` : t`Upload File`}
            </Button>
            {/* Outside the fieldset, which is disabled while the upload runs. */}
            {busy ? (
              <Button variant="secondary" aria-label={t`Cancel upload`} className="w-full sm:w-auto" onClick={queue.cancel}>
                <Trans>Cancel</Trans>
              </Button>
            ) : null}
          </div>
          <p role="status" className="text-sm text-slate-700 empty:hidden">
            {queue.summary}
          </p>
        </form>
      </section>
    </div>
  );
}

/**
 * The drop zone: drag and drop, or click / Enter / Space to open the picker. Dropped files show in
 * the picker too, so what will be sent is visible in one place.
 */
function DropZone({
  disabled,
  limitText,
  fileInput,
  onFiles,
}: {
  disabled: boolean;
  limitText: string;
  fileInput: RefObject<HTMLInputElement | null>;
  onFiles: (files: readonly File[]) => void;
}) {
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = Array.from(event.dataTransfer.files);
    if (dropped.length === 0) return;
    const input = fileInput.current;
    if (input) {
      try {
        const transfer = new DataTransfer();
        for (const file of dropped) transfer.items.add(file);
        input.files = transfer.files;
      } catch {
        // Older browsers cannot set a file input's files; the chosen files are kept in state anyway.
      }
    }
    onFiles(dropped);
  };

  const onDragOver = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    if (!disabled) setDragging(true);
  };

  return (
    <button
      type="button"
      disabled={disabled}
      onClick={() => fileInput.current?.click()}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="drop-zone"
      className={`flex w-full flex-col items-center gap-2 rounded-2xl border-2 border-dashed px-6 py-10 text-center transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${
        dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-400 bg-white hover:border-brand-600 hover:bg-brand-50'
      }`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-10 text-brand-700" fill="none" stroke="currentColor" strokeWidth="1.75">
        <path d="M12 16V4m0 0L7 9m5-5l5 5M4 16v3a1 1 0 001 1h14a1 1 0 001-1v-3" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="text-base font-semibold text-slate-900">
        <Trans>Drag and drop a file here (or several), or click to choose</Trans>
      </span>
      <span className="text-sm text-slate-700">
        <Trans>Supports PDF, JPG, PNG, DOCX and others. Files are securely stored and encrypted.</Trans>
        {limitText ? ` ${limitText}` : ''}
      </span>
    </button>
  );
}

const STATUS_CLASS: Record<UploadRowStatus, string> = {
  ready: 'text-slate-700',
  queued: 'text-slate-700',
  uploading: 'text-brand-800',
  done: 'text-green-800',
  'too-large': 'text-red-700',
  failed: 'text-red-700',
  cancelled: 'text-slate-700',
};

/** One chosen file: name and size, then its progress while it is sent, then its result. */
function FileRow({ row }: { row: UploadRow }) {
  const { t } = useLingui();
  const done = percent(row.progress);
  const size = fileSize(row.file.size);
  const fileName = row.file.name;
  return (
    <li aria-label={row.file.name} className="flex flex-col gap-1 px-3 py-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="min-w-0 font-medium break-all text-slate-900">
          {row.file.name}{' '}
          <span className="font-normal text-slate-700">{t({ message: `(${size})`, comment: 'A file size after its name' })}</span>
        </span>
        <span className={`font-semibold ${STATUS_CLASS[row.status]}`}>
          {row.status === 'uploading' && done !== null
            ? new Intl.NumberFormat(activeIntlLocale(), { style: 'percent' }).format(done / 100)
            : t(STATUS_TEXT[row.status])}
        </span>
      </div>
      {row.status === 'uploading' ? (
        <progress
          aria-label={t`Upload progress of ${fileName}`}
          max={100}
          {...(done === null ? {} : { value: done })}
          className="h-2 w-full overflow-hidden rounded-full accent-brand-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand-700"
        />
      ) : null}
      {row.message ? (
        // A failure is announced as it happens; a refusal before sending is read with its row.
        <p role={row.status === 'failed' ? 'alert' : undefined} className="text-sm text-red-700">
          {row.message}
        </p>
      ) : null}
    </li>
  );
}
