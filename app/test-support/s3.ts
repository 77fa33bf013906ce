import { createRequire } from "node:module";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The part of s3rver's API the tests use (the package ships no types). */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rverInstance;

export interface LocalS3 {
  /** An `S3_URL` for its bucket, with s3rver's built-in keys. */
  url: string;
  close(): Promise<void>;
}

/** A local S3 (s3rver) on a free port with one empty bucket, its objects in a folder of its own. */
export async function startLocalS3(bucket = "store-files"): Promise<LocalS3> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const directory = await mkdtemp(join(tmpdir(), "store-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    url: `http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}?region=us-east-1`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
