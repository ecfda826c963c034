import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { MedicalFile } from '@kinchart/shared/files';
import { FILE_INPUT_ACCEPT, FILE_NAME_MAX, fileTooLargeMessage, formatFileSize, stripExtension, uploadLimitMb } from '@kinchart/shared/files';
import { Button } from '../../../components/ui/button';
import { Field, inputClassName } from '../../../components/ui/field';
import { PersonSelect } from '../../../components/ui/person-select';
import { useForPerson } from '../../../lib/person-choice';
import { useUploadLimit } from '../../../lib/queries/client-config';
import { uploadRecord } from '../api/upload-record';
import type { UploadProgress } from '../../../lib/upload-client';
import { useAnnounceUpload } from '../hooks/use-announce-upload';
import { localToday } from '../utils/format';

interface DetailsValues {
  customName: string;
  customDate: string;
  providerName: string;
  visitLocation: string;
  visitReason: string;
}

const EMPTY: DetailsValues = { customName: '', customDate: '', providerName: '', visitLocation: '', visitReason: '' };

/** Where one chosen file is: waiting, refused in the browser, on its way, or its result. */
type RowStatus = 'ready' | 'too-large' | 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';

interface Row {
  key: number;
  file: File;
  status: RowStatus;
  progress: UploadProgress | null;
  /** Why it was refused or failed. */
  message?: string;
}

/** Rows that Upload File sends: new ones, and ones that failed or were cancelled (a retry). */
const SENDABLE: ReadonlySet<RowStatus> = new Set(['ready', 'failed', 'cancelled']);

export interface UploadResults {
  uploaded: MedicalFile[];
  /** Files that failed, were cancelled, or were refused before sending. */
  notUploaded: number;
}

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

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function percent(progress: UploadProgress | null): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.min(100, Math.round((progress.loaded / progress.total) * 100));
}

const STATUS_TEXT: Record<RowStatus, string> = {
  ready: 'Ready',
  'too-large': 'Not sent',
  queued: 'Waiting',
  uploading: 'Uploading',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

let nextKey = 1;

/**
 * SPEC §2 Upload, §4, §5: a drop zone (drag and drop, or click / Enter / Space to pick) and the
 * 'Record Details' form. Several files may be chosen; each gets a row with its own progress and
 * result, and they are sent one after another with the same details (each named after its file
 * when there are several). A file over the server's limit (GET /api/config) is refused before
 * sending; Cancel aborts the request under way and the ones still waiting.
 */
export function UploadRecordForm({ onUploaded, onFinished, onStarted, headingLevel = 2, personId }: UploadRecordFormProps) {
  const ids = useId();
  const fileInputId = `${ids}-file`;
  const limitId = `${ids}-limit`;
  const fileInputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState('');
  const [dragging, setDragging] = useState(false);
  const limit = useUploadLimit();
  const announce = useAnnounceUpload();
  // DESIGN §11: whose record it is — the person chosen on the dashboard, else yourself.
  const forPerson = useForPerson(personId);
  const { register, handleSubmit, reset, setValue } = useForm<DetailsValues>({ defaultValues: EMPTY });
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const limitText = limit === undefined ? '' : `Up to ${uploadLimitMb(limit)} MB per file.`;

  const sendable = rows.filter((row) => SENDABLE.has(row.status));
  // The files being or about to be sent. One: the spec's single Record Name. Several: each
  // record takes its file's name.
  const active = rows.filter((row) => SENDABLE.has(row.status) || row.status === 'queued' || row.status === 'uploading');
  const single = active.length === 1;
  const showDetails = active.length > 0;

  const patch = (key: number, change: Partial<Row>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const choose = (chosen: readonly File[]) => {
    if (chosen.length === 0) return;
    setSummary('');
    onStarted?.();
    const next = chosen.map(
      (file): Row =>
        limit !== undefined && file.size > limit
          ? // DESIGN §6: the server would answer 413 with this text; say it without sending the file.
            { key: nextKey++, file, status: 'too-large', progress: null, message: fileTooLargeMessage(uploadLimitMb(limit)) }
          : { key: nextKey++, file, status: 'ready', progress: null },
    );
    setRows(next);
    const first = next.find((row) => row.status === 'ready');
    // SPEC §3: Record Name defaults to the name without extension, Visit Date to today.
    if (first) setValue('customName', stripExtension(first.file.name));
    setValue('customDate', localToday());
  };

  const onPicked = (event: ChangeEvent<HTMLInputElement>) => choose(Array.from(event.target.files ?? []));

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (busy) return;
    const dropped = Array.from(event.dataTransfer.files);
    if (dropped.length === 0) return;
    // Show the dropped files in the picker too, so what will be sent is visible in one place.
    const input = fileInputRef.current;
    if (input) {
      try {
        const transfer = new DataTransfer();
        for (const file of dropped) transfer.items.add(file);
        input.files = transfer.files;
      } catch {
        // Older browsers cannot set a file input's files; the chosen files are kept in state anyway.
      }
    }
    choose(dropped);
  };

  const onDragOver = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = busy ? 'none' : 'copy';
    if (!busy) setDragging(true);
  };

  const onSubmit = handleSubmit(async (values) => {
    // SPEC §5: submit does nothing without a selected file.
    const batch = rows.filter((row) => SENDABLE.has(row.status));
    if (batch.length === 0 || busy) return;
    const controller = new AbortController();
    abortRef.current = controller;
    setBusy(true);
    setSummary('');
    onStarted?.();
    const keys = new Set(batch.map((row) => row.key));
    setRows((current) => current.map((row) => (keys.has(row.key) ? { ...row, status: 'queued', progress: null, message: undefined } : row)));
    const uploaded: MedicalFile[] = [];
    let notUploaded = rows.length - batch.length;
    for (const row of batch) {
      if (controller.signal.aborted) {
        patch(row.key, { status: 'cancelled' });
        notUploaded += 1;
        continue;
      }
      const name = batch.length === 1 ? values.customName : stripExtension(row.file.name);
      patch(row.key, { status: 'uploading', progress: { loaded: 0, total: row.file.size } });
      try {
        const record = await uploadRecord(
          {
            file: row.file,
            customName: name,
            // SPEC §3: the chosen visit date; if empty at submit, the current ISO timestamp.
            customDate: values.customDate || new Date().toISOString(),
            visitLocation: values.visitLocation,
            visitReason: values.visitReason,
            providerName: values.providerName,
            personId: forPerson.value,
          },
          { signal: controller.signal, onProgress: (progress) => patch(row.key, { progress }) },
        );
        patch(row.key, { status: 'done', progress: null });
        uploaded.push(record);
        announce(name.trim() || row.file.name);
        onUploaded?.(record);
      } catch (error) {
        notUploaded += 1;
        if (isAbort(error)) {
          patch(row.key, { status: 'cancelled', progress: null });
          continue;
        }
        // SPEC §8: 'Error uploading file: ' with the server's message (a 413 names the limit) or the
        // client's error text, and a log line. Said once, beside the file, as an alert for screen
        // readers — a browser alert box as well only repeated it (issue 30; docs/decisions/0036).
        patch(row.key, { status: 'failed', progress: null, message: `Error uploading file: ${errorText(error)}` });
        console.error('Error uploading file:', error);
      }
    }
    abortRef.current = null;
    setBusy(false);
    if (notUploaded === 0) {
      // SPEC §4: on success all fields and the file input reset (the rows stay as the results).
      reset(EMPTY);
      if (fileInputRef.current) fileInputRef.current.value = '';
    }
    setSummary(
      controller.signal.aborted
        ? `Upload cancelled. ${uploaded.length} of ${batch.length} ${batch.length === 1 ? 'file' : 'files'} uploaded.`
        : `${uploaded.length} of ${batch.length} ${batch.length === 1 ? 'file' : 'files'} uploaded.`,
    );
    onFinished?.({ uploaded, notUploaded });
  });

  return (
    <div className="flex flex-col gap-6">
      <button
        type="button"
        disabled={busy}
        onClick={() => fileInputRef.current?.click()}
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
        <span className="text-base font-semibold text-slate-900">Drag and drop a file here (or several), or click to choose</span>
        <span className="text-sm text-slate-700">
          Supports PDF, JPG, PNG, DOCX and others. Files are securely stored and encrypted.{limitText ? ` ${limitText}` : ''}
        </span>
      </button>

      <section aria-labelledby={`${ids}-details`} className="flex flex-col gap-4">
        <Heading id={`${ids}-details`} className="text-lg font-semibold text-slate-900">
          Record Details
        </Heading>
        <form onSubmit={onSubmit} noValidate aria-busy={busy} className="flex min-w-0 flex-col gap-4">
          <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
            <legend className="sr-only">Record Details</legend>
            {forPerson.showChoice ? (
              <PersonSelect
                label="For"
                people={forPerson.people}
                value={forPerson.value ?? ''}
                onChange={forPerson.onChange}
                containerClassName="sm:max-w-sm"
              />
            ) : null}
            <div className="flex flex-col gap-1">
              <label htmlFor={fileInputId} className="text-sm font-medium text-slate-800">
                File
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
                className="block w-full text-sm text-slate-800 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:py-2 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-100"
              />
              {limitText ? (
                <p id={limitId} className="text-sm text-slate-700">
                  {limitText} You can choose several files at once.
                </p>
              ) : null}
            </div>

            {rows.length > 0 ? (
              <ul aria-label="Chosen files" className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200">
                {rows.map((row) => (
                  <FileRow key={row.key} row={row} />
                ))}
              </ul>
            ) : null}

            {showDetails ? (
              <div className="grid gap-4 sm:grid-cols-2">
                {single ? (
                  <Field label="Record Name" maxLength={FILE_NAME_MAX} autoComplete="off" {...register('customName')} />
                ) : (
                  <p className="text-sm text-slate-700 sm:col-span-2">Each file is saved as its own record, named after the file.</p>
                )}
                <Field label="Visit Date" type="date" {...register('customDate')} />
                <Field label="Healthcare Provider" maxLength={200} autoComplete="off" {...register('providerName')} />
                <Field label="Visit Location" maxLength={200} autoComplete="off" {...register('visitLocation')} />
                <div className="flex flex-col gap-1 sm:col-span-2">
                  <label htmlFor={`${ids}-reason`} className="text-sm font-medium text-slate-800">
                    Reason for Visit
                  </label>
                  <textarea id={`${ids}-reason`} rows={3} maxLength={1000} className={inputClassName} {...register('visitReason')} />
                </div>
              </div>
            ) : null}
          </fieldset>

          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={sendable.length === 0 || busy} className="w-full sm:w-auto">
              {busy ? 'Uploading...' : 'Upload File'}
            </Button>
            {/* Outside the fieldset, which is disabled while the upload runs. */}
            {busy ? (
              <Button variant="secondary" aria-label="Cancel upload" className="w-full sm:w-auto" onClick={() => abortRef.current?.abort()}>
                Cancel
              </Button>
            ) : null}
          </div>
          <p role="status" className="text-sm text-slate-700 empty:hidden">
            {summary}
          </p>
        </form>
      </section>
    </div>
  );
}

const STATUS_CLASS: Record<RowStatus, string> = {
  ready: 'text-slate-700',
  queued: 'text-slate-700',
  uploading: 'text-brand-800',
  done: 'text-green-800',
  'too-large': 'text-red-700',
  failed: 'text-red-700',
  cancelled: 'text-slate-700',
};

/** One chosen file: name and size, then its progress while it is sent, then its result. */
function FileRow({ row }: { row: Row }) {
  const done = percent(row.progress);
  return (
    <li aria-label={row.file.name} className="flex flex-col gap-1 px-3 py-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="min-w-0 font-medium break-all text-slate-900">
          {row.file.name} <span className="font-normal text-slate-700">({formatFileSize(row.file.size)})</span>
        </span>
        <span className={`font-semibold ${STATUS_CLASS[row.status]}`}>
          {row.status === 'uploading' && done !== null ? `${done}%` : STATUS_TEXT[row.status]}
        </span>
      </div>
      {row.status === 'uploading' ? (
        <progress
          aria-label={`Upload progress of ${row.file.name}`}
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
