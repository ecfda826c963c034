import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import type { TestClient } from './helpers';

export const fixture = (name: string): Buffer => fs.readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));

export type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer; contentType?: string };

/** A multipart/form-data body built by hand, parts in the order given (the file may come first). */
export function multipartBody(parts: Part[], boundary = `----kinchart${Math.random().toString(16).slice(2)}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('filename' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
          'utf8',
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`, 'utf8'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function upload(client: TestClient, url: string, parts: Part[]): Promise<LightMyRequestResponse> {
  const { payload, headers } = multipartBody(parts);
  return client.post(url, payload, { headers });
}

/** Uploads one file with record details through POST /api/user/files, the file part first. */
export async function uploadRecord(
  client: TestClient,
  file: { filename: string; content: Buffer; contentType?: string },
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return upload(client, '/api/user/files', [
    { name: 'file', ...file },
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
  ]);
}

/** Every regular file under `dir`, relative paths. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

/** Committed blobs and temporary spool files of a local store under DATA_DIR/files. */
export function storedBlobs(dataDir: string): { committed: string[]; temp: string[] } {
  const all = filesUnder(path.join(dataDir, 'files'));
  return {
    committed: all.filter((f) => !f.startsWith('.tmp')),
    temp: all.filter((f) => f.startsWith('.tmp')),
  };
}

export function blobPath(dataDir: string, key: string): string {
  return path.join(dataDir, 'files', key.slice(0, 2).toLowerCase(), key);
}
