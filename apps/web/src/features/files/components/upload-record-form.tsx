import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { MedicalFile } from '@kinchart/shared/files';
import { FILE_INPUT_ACCEPT, FILE_NAME_MAX, formatFileSize, stripExtension } from '@kinchart/shared/files';
import { Button } from '../../../components/ui/button';
import { Field, inputClassName } from '../../../components/ui/field';
import { useUploadRecord } from '../api/upload-record';
import type { UploadProgress } from '../api/xhr-upload';
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

export interface UploadRecordFormProps {
  /** SPEC §4 Upload: the parent is told of the uploaded file. */
  onUploaded?: (file: MedicalFile) => void;
  /** Level of the 'Record Details' heading, so it fits under the page's or the dialog's title. */
  headingLevel?: 2 | 3;
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

function percent(progress: UploadProgress | null): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.min(100, Math.round((progress.loaded / progress.total) * 100));
}

/**
 * SPEC §2 Upload, §4, §5: a drop zone (drag and drop, or click / Enter / Space to pick) and the
 * 'Record Details' form. Choosing a file pre-fills Record Name (without extension) and Visit Date
 * (today) and reveals the detail fields; while the upload runs the whole form is disabled and a
 * progress bar shows how far it got.
 */
export function UploadRecordForm({ onUploaded, headingLevel = 2 }: UploadRecordFormProps) {
  const ids = useId();
  const fileInputId = `${ids}-file`;
  const progressId = `${ids}-progress`;
  const fileInputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useUploadRecord(setProgress);
  const announce = useAnnounceUpload();
  const busy = upload.isPending;
  const { register, handleSubmit, reset, setValue } = useForm<DetailsValues>({ defaultValues: EMPTY });
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  const choose = (chosen: File | null) => {
    setFile(chosen);
    if (!chosen) return;
    // SPEC §3: Record Name defaults to the name without extension, Visit Date to today.
    setValue('customName', stripExtension(chosen.name));
    setValue('customDate', localToday());
  };

  const onPicked = (event: ChangeEvent<HTMLInputElement>) => choose(event.target.files?.[0] ?? null);

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (busy) return;
    const dropped = event.dataTransfer.files;
    const first = dropped[0];
    if (!first) return;
    // Show the dropped file in the picker too, so what will be sent is visible in one place.
    const input = fileInputRef.current;
    if (input) {
      try {
        const transfer = new DataTransfer();
        transfer.items.add(first);
        input.files = transfer.files;
      } catch {
        // Older browsers cannot set a file input's files; the chosen file is kept in state anyway.
      }
    }
    choose(first);
  };

  const onDragOver = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = busy ? 'none' : 'copy';
    if (!busy) setDragging(true);
  };

  const onSubmit = handleSubmit(async (values) => {
    // SPEC §5: submit does nothing without a selected file.
    if (!file || busy) return;
    setProgress({ loaded: 0, total: file.size });
    try {
      const record = await upload.mutateAsync({
        file,
        customName: values.customName,
        // SPEC §3: the chosen visit date; if empty at submit, the current ISO timestamp.
        customDate: values.customDate || new Date().toISOString(),
        visitLocation: values.visitLocation,
        visitReason: values.visitReason,
        providerName: values.providerName,
      });
      // SPEC §4: on success all fields and the file input reset and the parent is told.
      reset(EMPTY);
      setFile(null);
      if (fileInputRef.current) fileInputRef.current.value = '';
      announce(values.customName.trim() || file.name);
      onUploaded?.(record);
    } catch (error) {
      // SPEC §8: an alert with the server's message or the client's error text, and a log line.
      console.error('Error uploading file:', error);
      window.alert(`Error uploading file: ${errorText(error)}`);
    } finally {
      setProgress(null);
    }
  });

  const done = percent(progress);

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
        <span className="text-base font-semibold text-slate-900">
          Drag and drop a file here, or click to choose one
        </span>
        <span className="text-sm text-slate-700">
          Supports PDF, JPG, PNG, DOCX and others. Files are securely stored and encrypted.
        </span>
      </button>

      <section aria-labelledby={`${ids}-details`} className="flex flex-col gap-4">
        <Heading id={`${ids}-details`} className="text-lg font-semibold text-slate-900">
          Record Details
        </Heading>
        <form onSubmit={onSubmit} noValidate aria-busy={busy}>
          <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
            <legend className="sr-only">Record Details</legend>
            <div className="flex flex-col gap-1">
              <label htmlFor={fileInputId} className="text-sm font-medium text-slate-800">
                File
              </label>
              <input
                ref={fileInputRef}
                id={fileInputId}
                name="file"
                type="file"
                accept={FILE_INPUT_ACCEPT}
                onChange={onPicked}
                className="block w-full text-sm text-slate-800 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:py-2 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-100"
              />
              {file ? (
                <p className="text-sm text-slate-700">
                  Selected: <span className="font-medium break-all text-slate-900">{file.name}</span> ({formatFileSize(file.size)})
                </p>
              ) : null}
            </div>

            {file ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Record Name" maxLength={FILE_NAME_MAX} autoComplete="off" {...register('customName')} />
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

            {progress ? (
              <div className="flex flex-col gap-1">
                <div className="flex items-center justify-between text-sm">
                  <label htmlFor={progressId} className="font-medium text-slate-800">
                    Upload progress
                  </label>
                  <span className="text-slate-700" aria-hidden="true">
                    {done === null ? '' : `${done}%`}
                  </span>
                </div>
                <progress
                  id={progressId}
                  max={100}
                  {...(done === null ? {} : { value: done })}
                  className="h-2 w-full overflow-hidden rounded-full accent-brand-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand-700"
                />
              </div>
            ) : null}

            <div>
              <Button type="submit" disabled={!file || busy} className="w-full sm:w-auto">
                {busy ? 'Uploading...' : 'Upload File'}
              </Button>
            </div>
          </fieldset>
        </form>
      </section>
    </div>
  );
}
