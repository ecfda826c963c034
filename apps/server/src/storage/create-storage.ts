import path from 'node:path';
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { createLocalBlobStore } from './local-blob-store';
import { createS3BlobStore } from './s3-blob-store';
import { loadMasterKey } from './master-key';

export interface Storage {
  blobs: BlobStore;
  /** Key-encryption key that wraps every file's data key (DESIGN §6). */
  masterKey: Buffer;
}

/** The blob store chosen by STORAGE and the master key (DESIGN §1); S3 fails fast when unreachable. */
export async function createStorage(config: Config): Promise<Storage> {
  const masterKey = loadMasterKey(config);
  return { blobs: await openBlobStore(config), masterKey };
}

/** The blob store alone (the operations commands need it without creating a master key). */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  const filesDir = path.join(config.dataDir, 'files');
  const { storage } = config;
  switch (storage.driver) {
    case 'local':
      return createLocalBlobStore(filesDir);
    case 's3': {
      const blobs = createS3BlobStore({ ...storage, spoolDir: path.join(filesDir, '.tmp') });
      await blobs.ensureBucket();
      return blobs;
    }
  }
}
