import fs from 'node:fs';
import fsp from 'node:fs/promises';

// Spool files are written once, read back once (to commit to S3) or not at all (local rename), and
// are up to MAX_UPLOAD_MB of ciphertext. Passing them through the page cache only evicts pages that
// are useful (the database's) and costs a kernel copy per byte into page-cache memory — on the
// benchmark VM that copy was the largest single cost of an upload (docs/decisions/0007). Where the
// file system allows it they are written with O_DIRECT instead: the device reads our buffers.
//
// O_DIRECT wants buffer addresses, file positions and lengths aligned to the device's block size.
// Positions and lengths here are multiples of 4 KiB (the largest block size in common use); the
// last partial block goes through the page cache. Buffers are WebAssembly memories, which are
// allocated in whole pages, so their address is page-aligned — JavaScript cannot align an ordinary
// Buffer. Whatever the device still refuses (EINVAL) or writes short is written through the page
// cache instead, so a surprise costs speed, never bytes.

/** Bytes per write system call; a multiple of BLOCK and of the 64 KiB WebAssembly page. */
export const DIRECT_BATCH = 4 * 1024 * 1024;
/** Direct writes start and end on multiples of this. */
const BLOCK = 4096;
const WASM_PAGE = 64 * 1024;
/** Idle aligned buffers kept for the next upload (each upload uses two). */
const POOL_LIMIT = 8;

const idle: Buffer[] = [];

// @types/node does not declare WebAssembly (a DOM and ES library type); only Memory is used here.
declare const WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => { readonly buffer: ArrayBuffer } };

function takeAligned(): Buffer {
  const pages = DIRECT_BATCH / WASM_PAGE;
  return idle.pop() ?? Buffer.from(new WebAssembly.Memory({ initial: pages, maximum: pages }).buffer);
}

function giveBack(buffer: Buffer): void {
  if (idle.length < POOL_LIMIT) idle.push(buffer);
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Creates `file` (mode 0600, must not exist) for direct writes. Resolves undefined — and leaves no
 * file — where the platform or file system has no O_DIRECT (macOS, Windows, some tmpfs and FUSE).
 */
export async function openDirect(file: string): Promise<fsp.FileHandle | undefined> {
  const { O_DIRECT, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
  if (O_DIRECT === undefined) return undefined;
  try {
    return await fsp.open(file, O_WRONLY | O_CREAT | O_EXCL | O_DIRECT, 0o600);
  } catch (error) {
    if (errorCode(error) !== 'EINVAL') throw error;
    // Linux creates the file before it checks O_DIRECT support.
    await fsp.rm(file, { force: true });
    return undefined;
  }
}

/**
 * Writes `source` into `file`, already opened by openDirect as `direct`, in DIRECT_BATCH writes,
 * double-buffered: one buffer is written (libuv's thread pool) while the next fills. Returns the
 * bytes written; the caller fsyncs and closes `direct`. Memory: two DIRECT_BATCH buffers.
 */
export async function writeDirect(direct: fsp.FileHandle, file: string, source: AsyncIterable<Uint8Array>): Promise<number> {
  const buffers: [Buffer, Buffer] = [takeAligned(), takeAligned()];
  let current: 0 | 1 = 0;
  let fill = 0;
  let position = 0;
  let size = 0;
  let inFlight: Promise<void> = Promise.resolve();
  let viaCache: fsp.FileHandle | undefined;
  let directRefused = false;

  /** Writes buffer[from, to) at file position `at` through the page cache. */
  const writeThroughCache = async (buffer: Buffer, from: number, to: number, at: number) => {
    viaCache ??= await fsp.open(file, 'r+');
    while (from < to) {
      const { bytesWritten } = await viaCache.write(buffer, from, to - from, at);
      if (bytesWritten === 0) throw new Error('The spool file accepted no bytes');
      from += bytesWritten;
      at += bytesWritten;
    }
  };
  /** Writes buffer[0, length) at file position `at`, directly while the device accepts it. */
  const writeAt = async (buffer: Buffer, length: number, at: number) => {
    let written = 0;
    if (!directRefused) {
      try {
        written = (await direct.write(buffer, 0, length, at)).bytesWritten;
      } catch (error) {
        if (errorCode(error) !== 'EINVAL') throw error;
      }
      // Refused or short: this device wants something else; the page cache takes the rest.
      if (written < length) directRefused = true;
    }
    await writeThroughCache(buffer, written, length, at + written);
  };
  const flush = async () => {
    await inFlight;
    inFlight = writeAt(buffers[current], DIRECT_BATCH, position);
    // Marked as handled at once: a failure is rethrown by the next await of inFlight.
    inFlight.catch(() => {});
    position += DIRECT_BATCH;
    current = current === 0 ? 1 : 0;
    fill = 0;
  };

  try {
    for await (const input of source) {
      const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
      size += chunk.length;
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(DIRECT_BATCH - fill, chunk.length - offset);
        chunk.copy(buffers[current], fill, offset, offset + n);
        fill += n;
        offset += n;
        if (fill === DIRECT_BATCH) await flush();
      }
    }
    await inFlight;
    const last = buffers[current];
    const whole = fill - (fill % BLOCK);
    if (whole > 0) await writeAt(last, whole, position);
    if (fill > whole) await writeThroughCache(last, whole, fill, position + whole);
    return size;
  } finally {
    // Never hand a buffer back while the thread pool may still be reading it.
    await inFlight.catch(() => {});
    await viaCache?.close();
    for (const buffer of buffers) giveBack(buffer);
  }
}
