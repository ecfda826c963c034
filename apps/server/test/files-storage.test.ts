import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCipheriv, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  IntegrityError,
  SEGMENT_SIZE,
  blobAssociatedData,
  decryptStream,
  encryptStream,
  encryptedSize,
  fileAssociatedData,
  fileBlobAssociatedData,
  newDataKey,
  unwrapDataKey,
  wrapDataKey,
} from '../src/storage/envelope';
import { loadMasterKey } from '../src/storage/master-key';
import { createLocalBlobStore } from '../src/storage/local-blob-store';
import { createTempSpool, writeAll } from '../src/storage/temp-spool';
import { DIRECT_BATCH, openDirect, writeDirect } from '../src/storage/direct-write';
import type { FileHandle } from 'node:fs/promises';
import { BlobNotFoundError } from '../src/storage/blob-store';
import { filesUnder } from './files-helpers';

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of source) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

async function* chunked(data: Buffer, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

const key = newDataKey();
const aad = fileAssociatedData('file-1', 'owner-1');
const encrypt = (data: Buffer, chunk = 7000) => collect(encryptStream(chunked(data, chunk), key, aad));
const decrypt = (blob: Buffer, k = key, a = aad, chunk = 5000) => collect(decryptStream(chunked(blob, chunk), k, a));

const tmpDirs: string[] = [];
const tmpDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-storage-'));
  tmpDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('chunked AES-256-GCM file encryption', () => {
  it.each([0, 1, 100, SEGMENT_SIZE - 1, SEGMENT_SIZE, SEGMENT_SIZE + 1, 3 * SEGMENT_SIZE, 3 * SEGMENT_SIZE + 12345])(
    'round-trips %i bytes exactly, whatever the chunking',
    async (size) => {
      const plain = randomBytes(size);
      const blob = await encrypt(plain);
      expect(blob.length).toBe(encryptedSize(size));
      expect((await decrypt(blob)).equals(plain)).toBe(true);
      expect((await decrypt(blob, key, aad, 1)).equals(plain)).toBe(true);
    },
  );

  it('opens blobs sealed with another segment size, as the header records it (64 KiB before decision 0008)', async () => {
    const plain = randomBytes(5 * 65536 + 7);
    const older = await collect(encryptStream(chunked(plain, 10_000), key, aad, 65536));
    expect(SEGMENT_SIZE).not.toBe(65536);
    expect(older.readUInt32BE(4)).toBe(65536);
    expect(older.length).toBe(encryptedSize(plain.length, 65536));
    expect((await decrypt(older)).equals(plain)).toBe(true);
  });

  it.each([1, 4096, SEGMENT_SIZE - 3, SEGMENT_SIZE, SEGMENT_SIZE + 5, 5 * SEGMENT_SIZE])(
    'seals segments that start and end inside chunks of %i bytes, from views into larger buffers',
    async (chunk) => {
      const plain = randomBytes(3 * SEGMENT_SIZE + 17);
      const copy = Buffer.from(plain);
      // Each chunk is a Uint8Array view at an odd offset into a larger ArrayBuffer.
      async function* views() {
        for (let i = 0; i < plain.length; i += chunk) {
          const part = plain.subarray(i, i + chunk);
          const backing = new Uint8Array(part.length + 8);
          backing.set(part, 3);
          yield backing.subarray(3, 3 + part.length);
        }
      }
      const blob = await collect(encryptStream(views(), key, aad));
      expect(blob.length).toBe(encryptedSize(plain.length));
      expect((await decrypt(blob)).equals(plain)).toBe(true);
      expect(plain.equals(copy)).toBe(true);
    },
  );

  it('never writes the plaintext, and two encryptions of one file differ', async () => {
    const plain = Buffer.from('%PDF-1.4 patient: Jordan Rivers, diagnosis: something private'.repeat(50));
    const a = await encrypt(plain);
    const b = await encrypt(plain);
    expect(a.includes(Buffer.from('%PDF'))).toBe(false);
    expect(a.includes(Buffer.from('Jordan'))).toBe(false);
    expect(a.equals(b)).toBe(false);
  });

  it('refuses a blob with any single byte flipped, anywhere', async () => {
    const plain = randomBytes(2 * SEGMENT_SIZE + 99);
    const blob = await encrypt(plain);
    for (const at of [0, 3, 5, 9, 15, 16, 100, SEGMENT_SIZE + 16 + 3, blob.length - 17, blob.length - 1]) {
      const bad = Buffer.from(blob);
      bad[at] = (bad[at] ?? 0) ^ 0x01;
      await expect(decrypt(bad), `byte ${at}`).rejects.toBeInstanceOf(IntegrityError);
    }
  });

  it('releases no plaintext of a damaged segment: bytes before it are authentic, then it fails', async () => {
    const plain = randomBytes(3 * SEGMENT_SIZE);
    const blob = await encrypt(plain);
    const bad = Buffer.from(blob);
    const inSecond = 16 + (SEGMENT_SIZE + 16) + 10;
    bad[inSecond] = (bad[inSecond] ?? 0) ^ 0xff;
    const released: Buffer[] = [];
    await expect(
      (async () => {
        for await (const c of decryptStream(chunked(bad, 4096), key, aad)) released.push(c);
      })(),
    ).rejects.toBeInstanceOf(IntegrityError);
    expect(Buffer.concat(released).equals(plain.subarray(0, SEGMENT_SIZE))).toBe(true);
  });

  it('refuses truncation at a segment boundary, dropped and reordered segments, and extra bytes', async () => {
    const blob = await encrypt(randomBytes(3 * SEGMENT_SIZE + 5));
    const seg = SEGMENT_SIZE + 16;
    const header = blob.subarray(0, 16);
    const s = [0, 1, 2, 3].map((i) => blob.subarray(16 + i * seg, 16 + (i + 1) * seg));
    const cases = {
      truncatedAtBoundary: Buffer.concat([header, s[0]!, s[1]!, s[2]!]),
      dropped: Buffer.concat([header, s[0]!, s[2]!, s[3]!]),
      reordered: Buffer.concat([header, s[1]!, s[0]!, s[2]!, s[3]!]),
      extra: Buffer.concat([blob, Buffer.from([0])]),
      headerOnly: header,
      empty: Buffer.alloc(0),
    };
    for (const [name, bad] of Object.entries(cases)) {
      await expect(decrypt(bad), name).rejects.toBeInstanceOf(IntegrityError);
    }
  });

  it('binds a blob to its file and owner: other associated data or another key fails', async () => {
    const blob = await encrypt(Buffer.from('hello'));
    await expect(decrypt(blob, key, fileAssociatedData('file-1', 'owner-2'))).rejects.toBeInstanceOf(IntegrityError);
    await expect(decrypt(blob, key, fileAssociatedData('file-2', 'owner-1'))).rejects.toBeInstanceOf(IntegrityError);
    await expect(decrypt(blob, newDataKey())).rejects.toBeInstanceOf(IntegrityError);
  });

  it("seals a new upload's segments for its file alone (version 2), so the person's owner can be bound when the key is wrapped", async () => {
    const plain = randomBytes(SEGMENT_SIZE + 99);
    const blob = await collect(encryptStream(chunked(plain, 4096), key, blobAssociatedData('file-1')));
    expect(blob[3]).toBe(2);
    // Whoever the owner turns out to be, the blob opens under its file; another file's binding fails.
    expect((await collect(decryptStream(chunked(blob, 5000), key, fileBlobAssociatedData('file-1', 'owner-9')))).equals(plain)).toBe(true);
    await expect(collect(decryptStream(chunked(blob, 5000), key, fileBlobAssociatedData('file-2', 'owner-9')))).rejects.toBeInstanceOf(
      IntegrityError,
    );
    // The version is under the tags: a blob made to claim version 1 does not open.
    const downgraded = Buffer.from(blob);
    downgraded[3] = 1;
    await expect(
      collect(decryptStream(chunked(downgraded, 5000), key, fileBlobAssociatedData('file-1', 'owner-9'))),
    ).rejects.toBeInstanceOf(IntegrityError);
  });

  it('still opens blobs of version 1, whose every segment is bound to file and owner', async () => {
    // Version 1 built here from the documented layout (docs/decisions/0003), not with the code under test.
    const plain = randomBytes(70_000);
    const segment = 65536;
    const header = Buffer.concat([Buffer.from('KCF'), Buffer.from([1]), Buffer.alloc(4), randomBytes(8)]);
    header.writeUInt32BE(segment, 4);
    const segmentAad = Buffer.concat([header, Buffer.from('file-1:owner-1')]);
    const parts = [header];
    for (let i = 0, at = 0; at < plain.length; i += 1, at += segment) {
      const last = at + segment >= plain.length;
      const nonce = Buffer.concat([header.subarray(8, 15), Buffer.alloc(5)]);
      nonce.writeUInt32BE(i, 7);
      nonce[11] = last ? 1 : 0;
      const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(segmentAad);
      parts.push(cipher.update(plain.subarray(at, at + segment)), cipher.final(), cipher.getAuthTag());
    }
    const v1 = Buffer.concat(parts);
    expect((await collect(decryptStream(chunked(v1, 3000), key, fileBlobAssociatedData('file-1', 'owner-1')))).equals(plain)).toBe(true);
    await expect(collect(decryptStream(chunked(v1, 3000), key, fileBlobAssociatedData('file-1', 'owner-2')))).rejects.toBeInstanceOf(
      IntegrityError,
    );
  });

  it('wraps a data key under the master key with the same binding', () => {
    const master = randomBytes(32);
    const wrapped = wrapDataKey(master, key, aad);
    expect(unwrapDataKey(master, wrapped, aad).equals(key)).toBe(true);
    expect(() => unwrapDataKey(randomBytes(32), wrapped, aad)).toThrow(IntegrityError);
    expect(() => unwrapDataKey(master, wrapped, fileAssociatedData('file-1', 'someone-else'))).toThrow(IntegrityError);
    const raw = Buffer.from(wrapped, 'base64');
    raw[20] = (raw[20] ?? 0) ^ 1;
    expect(() => unwrapDataKey(master, raw.toString('base64'), aad)).toThrow(IntegrityError);
  });
});

describe('master key', () => {
  it('is generated into DATA_DIR/master.key with mode 0600 on first start and read back later', () => {
    const dataDir = path.join(tmpDir(), 'data');
    const first = loadMasterKey({ masterKey: undefined, dataDir });
    expect(first.length).toBe(32);
    const file = path.join(dataDir, 'master.key');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadMasterKey({ masterKey: undefined, dataDir }).equals(first)).toBe(true);
    expect(fs.readdirSync(dataDir)).toEqual(['master.key']);
  });

  it('uses MASTER_KEY when set and writes nothing', () => {
    const dataDir = tmpDir();
    const configured = randomBytes(32);
    expect(loadMasterKey({ masterKey: configured.toString('base64'), dataDir }).equals(configured)).toBe(true);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a damaged key file rather than encrypting under a wrong key', () => {
    const dataDir = tmpDir();
    fs.writeFileSync(path.join(dataDir, 'master.key'), 'too-short');
    expect(() => loadMasterKey({ masterKey: undefined, dataDir })).toThrow(/32-byte key/);
  });
});

describe('local blob store', () => {
  it('commits by rename, streams back, deletes idempotently, and leaves nothing when a write fails', async () => {
    const root = tmpDir();
    const store = createLocalBlobStore(root);
    const temp = await store.putTemp(chunked(Buffer.from('ciphertext'), 3));
    expect(temp.size).toBe(10);
    expect(fs.statSync(temp.path).mode & 0o777).toBe(0o600);
    await store.commit(temp, 'abcdef12-0000-4000-8000-000000000000');
    expect(fs.existsSync(temp.path)).toBe(false);
    expect((await collect(await store.get('abcdef12-0000-4000-8000-000000000000'))).toString()).toBe('ciphertext');
    const listed = [];
    for await (const b of store.list()) listed.push(b.key);
    expect(listed).toEqual(['abcdef12-0000-4000-8000-000000000000']);
    await store.delete('abcdef12-0000-4000-8000-000000000000');
    await store.delete('abcdef12-0000-4000-8000-000000000000');
    await expect(store.get('abcdef12-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(BlobNotFoundError);

    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('client went away');
    }
    await expect(store.putTemp(failing())).rejects.toThrow('client went away');
    expect(filesUnder(path.join(root, '.tmp'))).toEqual([]);
    await store.close();
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it.each([
    ['directly (O_DIRECT)', true],
    ['through the page cache', false],
  ])('spools many batches byte for byte %s, and a failure after several batches leaves nothing', async (_how, direct) => {
    const dir = tmpDir();
    const spool = createTempSpool(dir, { direct });
    // Uneven chunk sizes across several 4 MiB write batches.
    const data = randomBytes(9 * 1024 * 1024 + 12345);
    async function* uneven() {
      let at = 0;
      for (let i = 0; at < data.length; i += 1) {
        const n = [1, 65536, 700_001, 3][i % 4] ?? 1;
        yield data.subarray(at, at + n);
        at += n;
      }
    }
    const temp = await spool.write(uneven());
    expect(temp.size).toBe(data.length);
    expect(fs.statSync(temp.path).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(temp.path).equals(data)).toBe(true);

    async function* failsLate() {
      for (let i = 0; i < 10; i += 1) yield randomBytes(1024 * 1024);
      throw new Error('client went away');
    }
    await expect(spool.write(failsLate())).rejects.toThrow('client went away');
    expect(fs.readdirSync(spool.dir)).toEqual([path.basename(temp.path)]);
  });

  it.each([0, 1, 4095, 4096, 4097, DIRECT_BATCH - 1, DIRECT_BATCH, DIRECT_BATCH + 1, 2 * DIRECT_BATCH + 12345, 4 * DIRECT_BATCH + 4096])(
    'writes %i bytes with O_DIRECT exactly, the last partial block through the page cache',
    async (size) => {
      const file = path.join(tmpDir(), 'blob.part');
      const handle = await openDirect(file);
      // The test machines run Linux on file systems with O_DIRECT; elsewhere the spool falls back.
      expect(handle).toBeDefined();
      const data = randomBytes(size);
      expect(await writeDirect(handle!, file, chunked(data, 100_003))).toBe(size);
      await handle!.close();
      expect(fs.readFileSync(file).equals(data)).toBe(true);
    },
  );

  it('writes through the page cache whatever O_DIRECT refuses or writes short, and stops on other errors', async () => {
    const dir = tmpDir();
    const data = randomBytes(2 * DIRECT_BATCH + 5000);
    const fakeDirect = (write: FileHandle['write']) => ({ write }) as unknown as FileHandle;
    const einval = Object.assign(new Error('EINVAL: invalid argument, write'), { code: 'EINVAL' });

    const refused = path.join(dir, 'refused.part');
    fs.writeFileSync(refused, '');
    const refuse = vi.fn(() => Promise.reject(einval));
    expect(await writeDirect(fakeDirect(refuse as unknown as FileHandle['write']), refused, chunked(data, 65536))).toBe(data.length);
    expect(fs.readFileSync(refused).equals(data)).toBe(true);
    // Once refused, later batches do not ask again.
    expect(refuse).toHaveBeenCalledTimes(1);

    const short = path.join(dir, 'short.part');
    fs.writeFileSync(short, '');
    const real = await fsp.open(short, 'r+');
    // Writes only the first 8 KiB of what it is given, like a device that stops early.
    const writeShort = ((buffer: Buffer, offset: number, length: number, position: number) =>
      real.write(buffer, offset, Math.min(length, 8192), position)) as unknown as FileHandle['write'];
    expect(await writeDirect(fakeDirect(writeShort), short, chunked(data, 65536))).toBe(data.length);
    await real.close();
    expect(fs.readFileSync(short).equals(data)).toBe(true);

    const failing = path.join(dir, 'failing.part');
    fs.writeFileSync(failing, '');
    const eio = Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    await expect(
      writeDirect(
        fakeDirect(() => Promise.reject(eio)),
        failing,
        chunked(data, 65536),
      ),
    ).rejects.toThrow('EIO');
  });

  it('never refills a buffer the device has not finished reading, whatever order the writes finish in', async () => {
    const file = path.join(tmpDir(), 'slow.part');
    fs.writeFileSync(file, '');
    const real = await fsp.open(file, 'r+');
    let running = 0;
    let mostAtOnce = 0;
    let calls = 0;
    // Reads the buffer only when the write finishes, as a device does, and finishes the writes out
    // of order: every third one is the slowest.
    const slowDevice = (async (buffer: Buffer, offset: number, length: number, position: number) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const delay = [30, 5, 15][calls++ % 3]!;
      await new Promise((resolve) => setTimeout(resolve, delay));
      const result = await real.write(Buffer.from(buffer.subarray(offset, offset + length)), 0, length, position);
      running -= 1;
      return result;
    }) as unknown as FileHandle['write'];
    const data = randomBytes(7 * DIRECT_BATCH + 123);
    expect(await writeDirect({ write: slowDevice } as unknown as FileHandle, file, chunked(data, 65536 + 7))).toBe(data.length);
    await real.close();
    expect(fs.readFileSync(file).equals(data)).toBe(true);
    // Writes overlap (the cipher does not wait for each one), within the ring of three buffers.
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(mostAtOnce).toBeLessThanOrEqual(3);
  });

  it('keeps concurrent uploads apart although they share a pool of write buffers', async () => {
    const spool = createTempSpool(tmpDir());
    const files = [1, 2, 3, 4].map((i) => randomBytes(DIRECT_BATCH * i + i * 999));
    for (let round = 0; round < 2; round += 1) {
      const temps = await Promise.all(files.map((data) => spool.write(chunked(data, 65536 + 7))));
      temps.forEach((temp, i) => expect(fs.readFileSync(temp.path).equals(files[i]!), `file ${i}`).toBe(true));
      await Promise.all(temps.map((temp) => spool.discard(temp)));
    }
  });

  it('writes every byte when the system writes fewer than asked', async () => {
    const written: Buffer[] = [];
    const handle = {
      // At most 1,000 bytes a call, like a short write.
      writev: async (buffers: Uint8Array[]) => {
        const all = Buffer.concat(buffers);
        const n = Math.min(1000, all.length);
        written.push(all.subarray(0, n));
        return { bytesWritten: n, buffers };
      },
    };
    const parts = [randomBytes(2500), randomBytes(1), randomBytes(999), randomBytes(4000)];
    await writeAll(handle as unknown as FileHandle, parts);
    expect(Buffer.concat(written).equals(Buffer.concat(parts))).toBe(true);
  });

  it('refuses keys that could escape its directory', async () => {
    const store = createLocalBlobStore(tmpDir());
    await expect(store.get('../../etc/passwd')).rejects.toThrow('Invalid blob key');
    await expect(store.delete('..')).rejects.toThrow('Invalid blob key');
  });
});
