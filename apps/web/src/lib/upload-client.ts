import { t } from '@lingui/core/macro';
import { serverText } from '../i18n/server-messages';
import { ApiError } from './api-client';

// A cancel's DOMException, as fetch raises it: for code that checks `name`, never shown.
const UPLOAD_CANCELLED = 'The upload was cancelled';
const ABORT_ERROR = 'AbortError';

export interface UploadProgress {
  loaded: number;
  /** 0 when the browser cannot tell the size of the body. */
  total: number;
}

export interface XhrUploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** The whole body has been sent; the server is now checking and storing it. */
  onSent?: () => void;
  signal?: AbortSignal;
}

function parseBody(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The one upload client (record files and imports): sends multipart form data with
 * XMLHttpRequest, because fetch cannot report upload progress and medical files and exports can be
 * large. Same rules as the api client: the session cookie goes along, no timeout, any 2xx is
 * success, a failure rejects with an ApiError carrying the server's message, and `signal` aborts.
 */
export function xhrUpload<T = unknown>(url: string, body: FormData, options: XhrUploadOptions = {}): Promise<T> {
  const { onProgress, onSent, signal } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException(UPLOAD_CANCELLED, ABORT_ERROR));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (onProgress) {
      xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    }
    if (onSent) xhr.upload.onload = () => onSent();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);

    xhr.onload = () => {
      done();
      const data = parseBody(xhr);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(data as T);
        return;
      }
      const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
      const message = [record.message, record.error].find((v): v is string => typeof v === 'string' && v !== '');
      const status = xhr.status;
      reject(new ApiError(status, serverText(data) ?? message ?? t`Request failed with status code ${status}`, data));
    };
    xhr.onerror = () => {
      done();
      reject(new Error(t`Network Error`));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException(UPLOAD_CANCELLED, ABORT_ERROR));
    };
    xhr.send(body);
  });
}
