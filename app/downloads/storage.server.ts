import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, copyFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Readable } from "node:stream";

/** An S3-compatible bucket (`S3_URL`): several instances share the files there. */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Where digital products' files live (decision 27): a folder under `DATA_DIR` for one instance, or an
 * S3-compatible bucket that several instances share. Both read a byte range as a stream, so a
 * download never holds the whole file in memory.
 */
export interface FileStorage {
  description: string;
  /** Stores the file at `path` (a finished, checked upload) under `key`. */
  put(key: string, path: string, contentType: string): Promise<void>;
  /** Whether the bytes of `key` are there, and how many. */
  size(key: string): Promise<number | null>;
  /** Bytes `start` to `end` (inclusive) of `key`. */
  read(key: string, range: { start: number; end: number }): Promise<Readable>;
  remove(key: string): Promise<void>;
  close(): void;
}

/** Keys are made by the store (`ebook/<uuid>.pdf`); anything else is refused before it reaches a path. */
const keyPattern = /^[a-z0-9-]+\/[0-9a-f-]{36}\.[a-z0-9]{2,4}$/;

function checkedKey(key: string): string {
  if (!keyPattern.test(key)) throw new Error(`Not a storage key of the store: ${key}`);
  return key;
}

export function filesystemStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(base, checkedKey(key));
    if (!path.startsWith(base + sep)) throw new Error(`Storage key outside the files folder: ${key}`);
    return path;
  };
  return {
    description: `files in ${base}`,
    async put(key, path) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      // Copied beside its place and renamed into it: a reader never sees half a file.
      const partial = `${target}.partial`;
      await copyFile(path, partial);
      await rename(partial, target);
    },
    async size(key) {
      const path = pathOf(key);
      try {
        return (await stat(path)).size;
      } catch {
        return null;
      }
    },
    async read(key, { start, end }) {
      return createReadStream(pathOf(key), { start, end, highWaterMark: 256 * 1024 });
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    close() {},
  };
}

/** The S3 client is loaded only when `S3_URL` is set: a store on the filesystem never pays for it. */
export async function s3Storage(settings: S3Settings): Promise<FileStorage> {
  const { S3Client, GetObjectCommand, HeadObjectCommand, PutObjectCommand, DeleteObjectCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    // Path-style addressing works with every S3-compatible service, and with AWS itself.
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 requires them: the SDK's default sends uploads in the aws-chunked
    // encoding, which several S3-compatible services store as it arrives, framing included.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = settings.bucket;
  return {
    description: `bucket ${Bucket} at ${settings.endpoint}`,
    async put(key, path, contentType) {
      const { size } = await stat(path);
      await client.send(new PutObjectCommand({ Bucket, Key: checkedKey(key), Body: createReadStream(path), ContentLength: size, ContentType: contentType }));
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: checkedKey(key) }));
        return head.ContentLength ?? null;
      } catch (error) {
        if (error instanceof Error && (error.name === "NotFound" || error.name === "NoSuchKey")) return null;
        throw error;
      }
    },
    async read(key, { start, end }) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: checkedKey(key), Range: `bytes=${start}-${end}` }));
      if (!(object.Body instanceof Readable)) throw new Error(`The object storage sent no stream for ${key}`);
      return object.Body;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
    close() {
      client.destroy();
    },
  };
}

export async function openFileStorage(settings: { s3: S3Settings | null; dataDir: string }): Promise<FileStorage> {
  return settings.s3 ? s3Storage(settings.s3) : filesystemStorage(join(settings.dataDir, "files"));
}
