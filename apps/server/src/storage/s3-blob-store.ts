import fs from 'node:fs';
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BlobStore, StoredBlob, TempBlob } from './blob-store';
import { BlobNotFoundError, assertBlobKey } from './blob-store';
import { createTempSpool } from './temp-spool';

export interface S3StoreOptions {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Local directory for the upload spool. */
  spoolDir: string;
  /** Object key prefix; blobs are `<prefix><key>`. */
  prefix?: string;
}

const isNotFound = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.name === 'NoSuchBucket' || e.$metadata?.httpStatusCode === 404;
};

/**
 * S3 driver (DESIGN §6, §10). An upload is spooled (already encrypted) to a local temporary file,
 * then commit sends it with one PutObject of known Content-Length straight to its final key: an
 * S3 PUT is atomic, so an object is either whole or absent, and no copy or multipart upload is
 * needed. If the process dies between the PUT and the database row, the start-up sweep removes
 * the object. See docs/decisions/0003-file-encryption.md.
 */
export function createS3BlobStore(options: S3StoreOptions): BlobStore & { ensureBucket(): Promise<void>; client: S3Client } {
  const client = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // Newer SDKs add CRC trailers to every PUT (aws-chunked encoding), which several
    // S3-compatible stores (s3rver, older MinIO) reject. GCM already authenticates every byte.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const { bucket } = options;
  const prefix = options.prefix ?? 'files/';
  const spool = createTempSpool(options.spoolDir);
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return `${prefix}${key}`;
  };

  return {
    driver: 's3',
    client,

    /** Fails start-up with a clear error when the bucket is unreachable; creates it when it does not exist. */
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        try {
          await client.send(new CreateBucketCommand({ Bucket: bucket }));
        } catch (createError) {
          // Several instances starting together on a new bucket (DESIGN §10): another one made it first.
          await client.send(new HeadBucketCommand({ Bucket: bucket })).catch(() => {
            throw createError;
          });
        }
      }
    },

    putTemp: (source) => spool.write(source),

    async commit(temp: TempBlob, key: string) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: fs.createReadStream(temp.path),
          ContentLength: temp.size,
          ContentType: 'application/octet-stream',
        }),
      );
      await spool.discard(temp);
    },

    discard: (temp) => spool.discard(temp),

    async get(key: string): Promise<Readable> {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        if (!(res.Body instanceof Readable)) throw new Error('S3 GetObject returned no stream');
        return res.Body;
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError();
        throw error;
      }
    },

    async delete(key: string) {
      // DeleteObject succeeds for a missing key.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async *list(): AsyncIterable<StoredBlob> {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield { key: object.Key.slice(prefix.length), lastModified: object.LastModified ?? new Date(0) };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    sweepTemp: (olderThan) => spool.sweep(olderThan),

    close: () => spool.close(),
  };
}
