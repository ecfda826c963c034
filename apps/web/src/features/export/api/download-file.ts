import { ApiError, withReauth } from '../../../lib/api-client';

export interface DownloadProgress {
  received: number;
  /** From Content-Length; 0 when the server did not say. */
  total: number;
}

function filenameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const match = /filename="([^"]+)"/.exec(header);
  return match?.[1] ?? fallback;
}

async function errorOf(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = (await response.json()) as unknown;
  } catch {
    body = undefined;
  }
  const message =
    typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' && body.message
      ? body.message
      : // eslint-disable-next-line lingui/no-unlocalized-strings -- the error's own text for developers; people see the body's message (serverMessage) or the caller's words
        `Request failed with status code ${response.status}`;
  return new ApiError(response.status, message, body);
}

/**
 * GETs a file with the session cookie, reading it chunk by chunk so the caller can show progress
 * (fetch reports download progress only through the body stream). A body shorter than its
 * Content-Length — the server cut it off — is a failure, never a smaller file.
 */
export async function downloadFile(
  url: string,
  options: { fallbackName: string; onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal },
): Promise<{ blob: Blob; filename: string }> {
  // A download that needs a recent password (the export, DESIGN §5) asks for it and starts again.
  const response = await withReauth(async () => {
    const answer = await fetch(url, { credentials: 'include', signal: options.signal });
    if (!answer.ok) throw await errorOf(answer);
    return answer;
  });
  const total = Number(response.headers.get('content-length') ?? 0) || 0;
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const filename = filenameOf(response, options.fallbackName);
  if (!response.body) {
    const blob = await response.blob();
    return { blob, filename };
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  options.onProgress?.({ received, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    options.onProgress?.({ received, total });
  }
  if (total && received !== total) throw new Error('The download was cut short');
  return { blob: new Blob(chunks as BlobPart[], { type }), filename };
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
