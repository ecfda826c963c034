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
/** Aligned buffers per upload: one filling while up to two are being written. */
const BUFFERS_PER_WRITE = 3;
/** Idle aligned buffers kept for the next uploads. */
const POOL_LIMIT = 4 * BUFFERS_PER_WRITE;

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

/** For promises whose failure is seen where they are awaited. */
const handledLater = () => {};

/**
 * One spool file's ring of aligned buffers and the writes in flight from it. A class, not closures
 * inside writeDirect: its methods are the same functions for every upload, so V8's optimised
 * writeDirect survives from one upload to the next (docs/decisions/0008).
 */
class DirectWriter {
  private readonly buffers = Array.from({ length: BUFFERS_PER_WRITE }, takeAligned);
  private current = 0;
  private fill = 0;
  private position = 0;
  // The writes of the buffers before `current`, oldest first; at most BUFFERS_PER_WRITE - 1.
  private readonly inFlight: Promise<void>[] = [];
  private viaCache: Promise<fsp.FileHandle> | undefined;
  private directRefused = false;

  constructor(
    private readonly direct: fsp.FileHandle,
    private readonly file: string,
  ) {}

  /** Copies chunk[offset, …) into the current buffer up to its end; returns where the copy stopped. */
  copyIn(chunk: Buffer, offset: number): number {
    const n = Math.min(DIRECT_BATCH - this.fill, chunk.length - offset);
    chunk.copy(this.buffers[this.current]!, this.fill, offset, offset + n);
    this.fill += n;
    return offset + n;
  }

  get full(): boolean {
    return this.fill === DIRECT_BATCH;
  }

  /** Starts writing the full current buffer and moves on; waits only when the ring has no free buffer. */
  async flush(): Promise<void> {
    const write = this.writeAt(this.buffers[this.current]!, DIRECT_BATCH, this.position);
    // Marked as handled at once: a failure is rethrown when the write is awaited.
    write.catch(handledLater);
    this.inFlight.push(write);
    this.position += DIRECT_BATCH;
    this.current = (this.current + 1) % this.buffers.length;
    this.fill = 0;
    // The next buffer to fill is the one the oldest write reads from.
    if (this.inFlight.length === this.buffers.length) await this.inFlight.shift();
  }

  /** Waits for the writes in flight, then writes what the current buffer holds. */
  async finish(): Promise<void> {
    while (this.inFlight.length > 0) await this.inFlight.shift();
    const last = this.buffers[this.current]!;
    const whole = this.fill - (this.fill % BLOCK);
    if (whole > 0) await this.writeAt(last, whole, this.position);
    if (this.fill > whole) await this.writeThroughCache(last, whole, this.fill, this.position + whole);
  }

  /** After success or failure: the buffers go back to the pool once no write can still read them. */
  async release(): Promise<void> {
    await Promise.allSettled(this.inFlight);
    await this.viaCache?.then((handle) => handle.close(), handledLater);
    for (const buffer of this.buffers) giveBack(buffer);
  }

  /** Writes buffer[0, length) at file position `at`, directly while the device accepts it. */
  private async writeAt(buffer: Buffer, length: number, at: number): Promise<void> {
    let written = 0;
    if (!this.directRefused) {
      try {
        written = (await this.direct.write(buffer, 0, length, at)).bytesWritten;
      } catch (error) {
        if (errorCode(error) !== 'EINVAL') throw error;
      }
      // Refused or short: this device wants something else; the page cache takes the rest.
      if (written < length) this.directRefused = true;
    }
    await this.writeThroughCache(buffer, written, length, at + written);
  }

  /** Writes buffer[from, to) at file position `at` through the page cache. */
  private async writeThroughCache(buffer: Buffer, from: number, to: number, at: number): Promise<void> {
    // Opened once, even when two refused writes get here at the same time.
    const handle = await (this.viaCache ??= fsp.open(this.file, 'r+'));
    while (from < to) {
      const { bytesWritten } = await handle.write(buffer, from, to - from, at);
      if (bytesWritten === 0) throw new Error('The spool file accepted no bytes');
      from += bytesWritten;
      at += bytesWritten;
    }
  }
}

/**
 * Writes `source` into `file`, already opened by openDirect as `direct`, in DIRECT_BATCH writes
 * from a ring of three buffers: one fills while the two before it are written (libuv's thread
 * pool). With only two, a write the device was slow to finish held up the cipher — 6–16 ms per
 * 200 MB on the benchmark VM (docs/decisions/0008). Returns the bytes written; the caller fsyncs
 * and closes `direct`. Memory: BUFFERS_PER_WRITE × DIRECT_BATCH.
 */
export async function writeDirect(direct: fsp.FileHandle, file: string, source: AsyncIterable<Uint8Array>): Promise<number> {
  const writer = new DirectWriter(direct, file);
  let size = 0;
  try {
    for await (const input of source) {
      const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
      size += chunk.length;
      let offset = 0;
      while (offset < chunk.length) {
        offset = writer.copyIn(chunk, offset);
        if (writer.full) await writer.flush();
      }
    }
    await writer.finish();
    return size;
  } finally {
    await writer.release();
  }
}
