import { plural, t } from '@lingui/core/macro';
import { useRef, useState } from 'react';
import { fileTooLargeMessage, stripExtension, uploadLimitMb, type MedicalFile } from '@kinchart/shared/files';
import { translateMessageText } from '../../../i18n/message-text';
import { serverMessage } from '../../../lib/api-client';
import type { UploadProgress } from '../../../lib/upload-client';
import { uploadRecord, type UploadRecordInput } from '../api/upload-record';
import { useAnnounceUpload } from './use-announce-upload';

/** Where one chosen file is: waiting, refused in the browser, on its way, or its result. */
export type UploadRowStatus = 'ready' | 'too-large' | 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';

export interface UploadRow {
  key: number;
  file: File;
  status: UploadRowStatus;
  progress: UploadProgress | null;
  /** Why it was refused or failed. */
  message?: string;
}

export interface UploadResults {
  uploaded: MedicalFile[];
  /** Files that failed, were cancelled, or were refused before sending. */
  notUploaded: number;
}

/** The details every file of one Upload File goes with; the file and its record name come from the queue. */
export type UploadDetails = Omit<UploadRecordInput, 'file'>;

export interface UploadQueueOptions {
  /** The server's limit per file in bytes (GET /api/config); undefined until it is known. */
  limit: number | undefined;
  /** SPEC §4 Upload: told of each uploaded file. */
  onUploaded?: ((file: MedicalFile) => void) | undefined;
  /** New files were chosen or an upload begins: an earlier result no longer applies. */
  onStarted?: (() => void) | undefined;
}

export interface UploadQueue {
  rows: readonly UploadRow[];
  /** An upload is under way. */
  busy: boolean;
  /** The last upload's outcome ('1 of 2 files uploaded.'), empty before one and after new files are chosen. */
  summary: string;
  /** How many files Upload File would send: new ones, and ones that failed or were cancelled (a retry). */
  sendable: number;
  /** How many files are being or about to be sent: one takes the Record Name, several their own names. */
  active: number;
  /** Replaces the chosen files; answers the first one that will be sent, if any. */
  choose: (files: readonly File[]) => File | undefined;
  /** Sends the sendable files one after another; null when there was nothing to send or an upload is under way. */
  upload: (details: UploadDetails) => Promise<UploadResults | null>;
  /** Aborts the request under way and the files still waiting. */
  cancel: () => void;
}

const SENDABLE: ReadonlySet<UploadRowStatus> = new Set(['ready', 'failed', 'cancelled']);
const ACTIVE: ReadonlySet<UploadRowStatus> = new Set([...SENDABLE, 'queued', 'uploading']);

/** The server's message in the reader's language when there is one, else the client's error text. */
function errorText(error: unknown): string {
  const fromServer = serverMessage(error);
  if (fromServer) return fromServer;
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

let nextKey = 1;

/**
 * The upload form's queue (SPEC §2 Upload, §4, §5): the chosen files, each with its own progress
 * and result, sent one after another with the same details (each named after its file when there
 * are several). A file over the server's limit is refused before sending; cancel aborts the
 * request under way and the ones still waiting; Upload File again retries what did not go.
 */
export function useUploadQueue({ limit, onUploaded, onStarted }: UploadQueueOptions): UploadQueue {
  const abortRef = useRef<AbortController | null>(null);
  const [rows, setRows] = useState<UploadRow[]>([]);
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState('');
  const announce = useAnnounceUpload();

  const patch = (key: number, change: Partial<UploadRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const choose = (files: readonly File[]): File | undefined => {
    if (files.length === 0) return undefined;
    setSummary('');
    onStarted?.();
    const next = files.map((file): UploadRow =>
      limit !== undefined && file.size > limit
        ? // DESIGN §6: the server would answer 413 with this text; say it without sending the file.
          {
            key: nextKey++,
            file,
            status: 'too-large',
            progress: null,
            message: translateMessageText(fileTooLargeMessage(uploadLimitMb(limit))),
          }
        : { key: nextKey++, file, status: 'ready', progress: null },
    );
    setRows(next);
    return next.find((row) => row.status === 'ready')?.file;
  };

  const upload = async (details: UploadDetails): Promise<UploadResults | null> => {
    // SPEC §5: submit does nothing without a selected file.
    const batch = rows.filter((row) => SENDABLE.has(row.status));
    if (batch.length === 0 || busy) return null;
    const controller = new AbortController();
    abortRef.current = controller;
    setBusy(true);
    setSummary('');
    onStarted?.();
    const keys = new Set(batch.map((row) => row.key));
    setRows((current) =>
      current.map((row) => (keys.has(row.key) ? { ...row, status: 'queued', progress: null, message: undefined } : row)),
    );
    const uploaded: MedicalFile[] = [];
    // Files refused before sending stay not uploaded; ones uploaded by an earlier Upload File are done.
    let notUploaded = rows.filter((row) => !keys.has(row.key) && row.status !== 'done').length;
    for (const row of batch) {
      if (controller.signal.aborted) {
        patch(row.key, { status: 'cancelled' });
        notUploaded += 1;
        continue;
      }
      const name = batch.length === 1 ? details.customName : stripExtension(row.file.name);
      patch(row.key, { status: 'uploading', progress: { loaded: 0, total: row.file.size } });
      try {
        const record = await uploadRecord(
          // SPEC §3: the chosen visit date; if empty at submit, the current ISO timestamp.
          { ...details, file: row.file, customName: name, customDate: details.customDate || new Date().toISOString() },
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
        const reason = errorText(error);
        patch(row.key, { status: 'failed', progress: null, message: t`Error uploading file: ${reason}` });
        console.error('Error uploading file:', error);
      }
    }
    abortRef.current = null;
    setBusy(false);
    const done = uploaded.length;
    const total = batch.length;
    setSummary(
      controller.signal.aborted
        ? plural(total, {
            one: `Upload cancelled. ${done} of # file uploaded.`,
            other: `Upload cancelled. ${done} of # files uploaded.`,
          })
        : plural(total, { one: `${done} of # file uploaded.`, other: `${done} of # files uploaded.` }),
    );
    return { uploaded, notUploaded };
  };

  return {
    rows,
    busy,
    summary,
    sendable: rows.filter((row) => SENDABLE.has(row.status)).length,
    active: rows.filter((row) => ACTIVE.has(row.status)).length,
    choose,
    upload,
    cancel: () => abortRef.current?.abort(),
  };
}
