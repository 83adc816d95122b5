/** What the S3 store's parts (presigning, reading, names) share. */
import { S3ServiceException, type S3Client } from '@aws-sdk/client-s3';

/** The client, the bucket and what every request of the store carries. */
export interface S3Context {
  readonly client: S3Client;
  readonly bucket: string;
  /** Keys per list request (S3 caps it at 1000). */
  readonly pageSize: number;
  /** Server-side encryption for every write (PUT, presigned PUT, copy), as the SDK's parameters. */
  readonly sse: { ServerSideEncryption?: 'AES256' | 'aws:kms'; SSEKMSKeyId?: string };
  /** The same as request headers: signed into presigned PUT URLs, which the uploader must then send. */
  readonly sseHeaders: Readonly<Record<string, string>>;
}

/** True for S3's answer that the object (or key) is not there. */
export const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
