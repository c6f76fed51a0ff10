/**
 * `ObjectStore` on S3 or an S3-compatible store (radosgw, MinIO, s3rver), with @aws-sdk/client-s3 v3.
 *
 * - Keys live under `prefix + key` in one bucket; `list` returns them without the prefix, sorted in UTF-8
 *   byte order (as S3 lists them), so several Quarry installations can share a bucket.
 * - Credentials come from the SDK's default provider chain (environment, shared config, IRSA/IMDS).
 *   `credentials` exists for tests.
 * - Connections: one keep-alive agent with at most `maxSockets` sockets. `connectionTimeoutMs` bounds the
 *   TCP connect, `requestTimeoutMs` both the wait for response headers and any socket inactivity (so a
 *   stalled body stream fails too). Note that a request queued for a socket counts against its timeout.
 * - Retries: the SDK's standard strategy (exponential backoff with full jitter, capped, with a retry
 *   quota) over `maxAttempts` attempts, for network errors, timeouts, 5xx and throttling. A body stream
 *   that breaks after the headers arrived is retried here, within the same attempt budget.
 * - Errors: a missing key is `not_found`; everything the store does wrong (down, timing out, 5xx,
 *   throttling after retries, refused credentials, missing bucket) is `unavailable` with
 *   `retryAfterSeconds`, a message naming the operation, key, endpoint and bucket, and never a secret.
 * - Ranges: `getRange` sends `Range: bytes=a-b`. A range that starts at or past the end is answered 416 by
 *   S3; the adapter then heads the object to tell "at the end" (empty result) from "past the end"
 *   (`invalid`), so it behaves like the other adapters. `length` 0 returns an empty array without a
 *   request (and so without checking that the object exists). Every body's length is checked against
 *   the size the server announced.
 * - Writes: one PutObject below `multipartThresholdBytes`, a multipart upload above it (lib-storage,
 *   aborted on failure). Both are atomic for readers, as S3 is.
 * - Checksums: against an explicit `endpoint` the SDK's flexible checksums are only sent where an
 *   operation requires them, since S3-compatible servers (radosgw 16, s3rver) do not all support them;
 *   against AWS they are on (the SDK default). Override with `checksums`.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { QuarryError } from '@quarry/common';
import { compareKeys } from './memory-object-store.fake';
import { checkRange, notFound, validateKey, validatePrefix } from './object-key';
import type { ObjectStore } from './object-store.port';

export interface S3ObjectStoreOptions {
  /** e.g. `http://127.0.0.1:7480`. Unset: AWS S3 in `region`. */
  endpoint?: string;
  bucket: string;
  /** Keys are stored under `prefix + key`; a missing trailing `/` is added. Default ''. */
  prefix?: string;
  /** Default `us-east-1`. */
  region?: string;
  /** Path-style URLs (`endpoint/bucket/key`): true for radosgw, MinIO and s3rver. Default false. */
  forcePathStyle?: boolean;
  /** FOR TESTS ONLY. Production uses the SDK's default chain (env, shared config, IRSA, IMDS). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Sockets in the connection pool. Default 64. */
  maxSockets?: number;
  /** TCP connect timeout (ms). Default 3000. */
  connectionTimeoutMs?: number;
  /** Time to response headers, and longest socket inactivity (ms). Default 30000. */
  requestTimeoutMs?: number;
  /** Attempts per request, the first included (SDK standard retry mode). Default 4. */
  maxAttempts?: number;
  /** Bodies of at least this size go up as multipart uploads. Default 16 MiB. */
  multipartThresholdBytes?: number;
  /** Part size of multipart uploads; at least 5 MiB (S3's minimum). Default 8 MiB. */
  partSizeBytes?: number;
  /** Parts uploaded at once per multipart upload. Default 4. */
  multipartConcurrency?: number;
  /** Keys per ListObjectsV2 page (1..1000). Default 1000; tests lower it to exercise pagination. */
  listPageSize?: number;
  /** Flexible checksums: 'when_supported' (the SDK default) or 'when_required'. See the file comment. */
  checksums?: 'when_supported' | 'when_required';
}

export interface S3ObjectStoreStats {
  /** SDK commands sent (one per call, retries not included), by command name, e.g. `GetObjectCommand`. */
  requests: Record<string, number>;
  /** Calls that failed as `unavailable`, by adapter operation (`get`, `put`, ...). */
  errors: Record<string, number>;
  /** Attempts beyond the first, summed over all commands (SDK retries and body-stream retries). */
  retries: number;
  /** Object bytes received in bodies. */
  bytesRead: number;
  /** Object bytes sent by successful puts. */
  bytesWritten: number;
}

const MiB = 1024 * 1024;
const MIN_PART_BYTES = 5 * MiB;
/** What `retryAfterSeconds` says for a store that is down or refusing us. */
const RETRY_AFTER_UNAVAILABLE_S = 5;
const RETRY_AFTER_CREDENTIALS_S = 30;

const CREDENTIAL_ERRORS = new Set([
  'AccessDenied',
  'Forbidden',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'AccountProblem',
  'AllAccessDisabled',
  'CredentialsProviderError',
  'InvalidClientTokenId',
]);

/** Parts of an SDK error that are safe to read and show. */
interface SdkErrorLike {
  name?: string;
  Code?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number; requestId?: string };
  $retryable?: unknown;
}

type Op = 'put' | 'get' | 'getRange' | 'head' | 'delete' | 'list' | 'open';

export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly where: string;
  private readonly maxAttempts: number;
  private readonly multipartThreshold: number;
  private readonly partSize: number;
  private readonly multipartConcurrency: number;
  private readonly listPageSize: number;
  private readonly counters: S3ObjectStoreStats = {
    requests: {},
    errors: {},
    retries: 0,
    bytesRead: 0,
    bytesWritten: 0,
  };

  /** Builds the client without contacting the store; prefer `open`, which checks the bucket. */
  constructor(options: S3ObjectStoreOptions) {
    if (!options.bucket) throw new QuarryError('invalid', 'S3ObjectStore: bucket is required');
    this.bucket = options.bucket;
    this.prefix = normalizePrefix(options.prefix ?? '');
    const region = options.region ?? 'us-east-1';
    const shownEndpoint = options.endpoint ? withoutUserInfo(options.endpoint) : `AWS S3 (${region})`;
    this.where = `${shownEndpoint} bucket ${options.bucket}${this.prefix ? ` prefix ${this.prefix}` : ''}`;
    this.maxAttempts = positiveInt(options.maxAttempts ?? 4, 'maxAttempts');
    this.multipartThreshold = positiveInt(
      options.multipartThresholdBytes ?? 16 * MiB,
      'multipartThresholdBytes',
    );
    this.partSize = positiveInt(options.partSizeBytes ?? 8 * MiB, 'partSizeBytes');
    if (this.partSize < MIN_PART_BYTES)
      throw new QuarryError('invalid', `S3ObjectStore: partSizeBytes must be at least ${MIN_PART_BYTES}`);
    this.multipartConcurrency = positiveInt(options.multipartConcurrency ?? 4, 'multipartConcurrency');
    this.listPageSize = Math.min(1000, positiveInt(options.listPageSize ?? 1000, 'listPageSize'));
    const maxSockets = positiveInt(options.maxSockets ?? 64, 'maxSockets');
    const requestTimeout = positiveInt(options.requestTimeoutMs ?? 30_000, 'requestTimeoutMs');
    const checksums = options.checksums ?? (options.endpoint ? 'when_required' : 'when_supported');
    const agentOptions = { keepAlive: true, maxSockets, maxFreeSockets: Math.min(maxSockets, 16) };
    this.client = new S3Client({
      endpoint: options.endpoint,
      region,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      maxAttempts: this.maxAttempts,
      retryMode: 'standard',
      requestChecksumCalculation: checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      responseChecksumValidation: checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      requestHandler: new NodeHttpHandler({
        httpAgent: new HttpAgent(agentOptions),
        httpsAgent: new HttpsAgent(agentOptions),
        connectionTimeout: positiveInt(options.connectionTimeoutMs ?? 3000, 'connectionTimeoutMs'),
        requestTimeout,
        throwOnRequestTimeout: true,
        socketTimeout: requestTimeout,
      }),
    });
    // Counts every command, including the ones lib-storage sends for multipart uploads.
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const name = context.commandName ?? 'unknown';
        this.counters.requests[name] = (this.counters.requests[name] ?? 0) + 1;
        try {
          const out = await next(args);
          this.countRetries((out.output as { $metadata?: { attempts?: number } }).$metadata?.attempts);
          return out;
        } catch (err) {
          this.countRetries((err as SdkErrorLike).$metadata?.attempts);
          throw err;
        }
      },
      { step: 'initialize', name: 'quarryObjectStoreStats' },
    );
  }

  /**
   * Creates the store and checks that the bucket is reachable (HeadBucket), creating it when asked and
   * missing, so a misconfiguration fails at start with a message naming endpoint and bucket.
   */
  static async open(
    options: S3ObjectStoreOptions,
    { createBucket = false }: { createBucket?: boolean } = {},
  ): Promise<S3ObjectStore> {
    const store = new S3ObjectStore(options);
    try {
      await store.checkBucket(createBucket);
    } catch (err) {
      store.close();
      throw err;
    }
    return store;
  }

  /** Closes the connection pool. The store must not be used afterwards. */
  close(): void {
    this.client.destroy();
  }

  stats(): S3ObjectStoreStats {
    return {
      requests: { ...this.counters.requests },
      errors: { ...this.counters.errors },
      retries: this.counters.retries,
      bytesRead: this.counters.bytesRead,
      bytesWritten: this.counters.bytesWritten,
    };
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    validateKey(key);
    const Key = this.prefix + key;
    try {
      if (body.length >= this.multipartThreshold && body.length > this.partSize) {
        const upload = new Upload({
          client: this.client,
          params: { Bucket: this.bucket, Key, Body: body, ContentLength: body.length },
          partSize: this.partSize,
          queueSize: this.multipartConcurrency,
          leavePartsOnError: false,
        });
        await upload.done();
      } else {
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.length }),
        );
      }
      this.counters.bytesWritten += body.length;
    } catch (err) {
      throw this.failure(err, 'put', key);
    }
  }

  async get(key: string): Promise<Uint8Array> {
    validateKey(key);
    return this.withBodyRetries('get', key, async () => {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }),
      );
      const body = await readBody(out, key);
      this.counters.bytesRead += body.length;
      return body;
    });
  }

  async getRange(key: string, offset: number, length: number): Promise<Uint8Array> {
    validateKey(key);
    checkRange(key, offset, length, Number.MAX_SAFE_INTEGER);
    if (length === 0) return new Uint8Array(0);
    return this.withBodyRetries('getRange', key, async () => {
      let out: GetObjectCommandOutput;
      try {
        out = await this.client.send(
          new GetObjectCommand({
            Bucket: this.bucket,
            Key: this.prefix + key,
            Range: `bytes=${offset}-${offset + length - 1}`,
          }),
        );
      } catch (err) {
        if (!isInvalidRange(err)) throw err;
        // The range starts at or past the end (S3 also answers 416 for any range of an empty object).
        const head = await this.head(key);
        if (head === null) throw notFound(key);
        checkRange(key, offset, length, head.size);
        if (offset >= head.size) return new Uint8Array(0);
        throw err; // 416 for a satisfiable range: the object changed meanwhile; let the retry decide
      }
      const total = totalSize(out.ContentRange);
      if (out.ContentRange === undefined) {
        // A server that ignores Range sends the whole object (some do for empty objects).
        const whole = await readBody(out, key);
        this.counters.bytesRead += whole.length;
        checkRange(key, offset, length, whole.length);
        return whole.slice(offset, Math.min(whole.length, offset + length));
      }
      const body = await readBody(out, key);
      this.counters.bytesRead += body.length;
      const expected = total === undefined ? body.length : Math.max(0, Math.min(length, total - offset));
      const start = rangeStart(out.ContentRange);
      if (body.length !== expected || (start !== undefined && start !== offset)) {
        throw new ShortBodyError(
          `range ${offset}+${length} of ${key}: got ${body.length} bytes at ${start} (${out.ContentRange}), expected ${expected}`,
        );
      }
      return body;
    });
  }

  async head(key: string): Promise<{ size: number } | null> {
    validateKey(key);
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }),
      );
      return { size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isMissingKey(err, 'head')) return null;
      throw this.failure(err, 'head', key);
    }
  }

  async delete(key: string): Promise<void> {
    validateKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
    } catch (err) {
      if (isMissingKey(err, 'delete')) return;
      throw this.failure(err, 'delete', key);
    }
  }

  async list(prefix: string): Promise<string[]> {
    validatePrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    try {
      do {
        const out = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            ContinuationToken: token,
            MaxKeys: this.listPageSize,
          }),
        );
        for (const o of out.Contents ?? []) {
          if (o.Key !== undefined && o.Key.startsWith(this.prefix))
            keys.push(o.Key.slice(this.prefix.length));
        }
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
        if (out.IsTruncated && !token)
          throw new Error('ListObjectsV2 answered IsTruncated without a NextContinuationToken');
      } while (token !== undefined);
    } catch (err) {
      throw this.failure(err, 'list', prefix);
    }
    return keys.sort(compareKeys);
  }

  private async checkBucket(createBucket: boolean): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (err) {
      if (!(createBucket && httpStatus(err) === 404)) throw this.failure(err, 'open', '', true);
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      if (errorName(err) === 'BucketAlreadyOwnedByYou') return; // created meanwhile, by another node
      // BucketAlreadyExists may be a concurrent create of ours, or another account's bucket: ask again.
      const usable = await this.client.send(new HeadBucketCommand({ Bucket: this.bucket })).then(
        () => true,
        () => false,
      );
      if (!usable) throw this.failure(err, 'open', '', true);
    }
  }

  /**
   * Runs a read, retrying when the body stream breaks after the headers came (the SDK retries only up to
   * the headers). Attempts the SDK spent count against the same `maxAttempts`.
   */
  private async withBodyRetries(op: Op, key: string, read: () => Promise<Uint8Array>): Promise<Uint8Array> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read();
      } catch (err) {
        if (isMissingKey(err, op)) throw notFound(key);
        const bodyBroke = err instanceof ShortBodyError || isStreamError(err);
        if (bodyBroke && attempt < this.maxAttempts) {
          this.counters.retries++;
          await sleep(Math.random() * Math.min(2000, 100 * 2 ** attempt));
          continue;
        }
        throw this.failure(err, op, key);
      }
    }
  }

  private countRetries(attempts: number | undefined): void {
    if (attempts !== undefined && attempts > 1) this.counters.retries += attempts - 1;
  }

  /** Maps an SDK or network error to a QuarryError; QuarryErrors pass through. */
  private failure(err: unknown, op: Op, key: string, opening = false): QuarryError {
    if (err instanceof QuarryError) return err;
    this.counters.errors[op] = (this.counters.errors[op] ?? 0) + 1;
    const e = (typeof err === 'object' && err !== null ? err : {}) as SdkErrorLike;
    const name = errorName(err);
    const status = e.$metadata?.httpStatusCode;
    const attempts = e.$metadata?.attempts;
    const what = opening ? `opening ${this.where}` : `${op} ${JSON.stringify(key)} on ${this.where}`;
    const detail = (e.message ?? '').replace(/^AWS SDK error wrapper for /, '');
    const why = `${name}${status ? ` (HTTP ${status})` : ''}${detail && detail !== name ? `: ${detail}` : ''}`;
    // The SDK error can carry request details (headers, the access key id); keep only what is shown here.
    const cause = new Error(why);
    if (CREDENTIAL_ERRORS.has(name) || status === 401 || status === 403) {
      return new QuarryError(
        'unavailable',
        `object store refused the credentials (${why}) for ${what}: check the S3 credentials ` +
          `(AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, the pod's role) and the bucket policy`,
        { code: 'objstore_credentials_refused', retryAfterSeconds: RETRY_AFTER_CREDENTIALS_S, cause },
      );
    }
    if (name === 'NoSuchBucket' || (opening && status === 404)) {
      return new QuarryError('unavailable', `object store bucket does not exist: ${what}`, {
        code: 'objstore_no_bucket',
        retryAfterSeconds: RETRY_AFTER_CREDENTIALS_S,
        cause,
      });
    }
    return new QuarryError(
      'unavailable',
      `object store unavailable: ${what} failed${attempts ? ` after ${attempts} attempt(s)` : ''}: ${why}`,
      { code: 'objstore_unavailable', retryAfterSeconds: RETRY_AFTER_UNAVAILABLE_S, cause },
    );
  }
}

/** A body that came shorter (or longer) than announced: a broken stream or an inconsistent server. */
class ShortBodyError extends Error {
  override name = 'ShortBodyError';
}

function normalizePrefix(prefix: string): string {
  if (prefix === '') return '';
  const p = prefix.endsWith('/') ? prefix : `${prefix}/`;
  try {
    validateKey(p.slice(0, -1));
  } catch (err) {
    throw new QuarryError('invalid', `S3ObjectStore: invalid prefix ${JSON.stringify(prefix)}`, {
      cause: err,
    });
  }
  return p;
}

/** The endpoint for messages, without any `user:password@`. */
function withoutUserInfo(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    if (url.username === '' && url.password === '') return endpoint;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return endpoint.replace(/\/\/[^/@]*@/, '//');
  }
}

function positiveInt(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new QuarryError('invalid', `S3ObjectStore: ${name} must be a positive integer, not ${value}`);
  return value;
}

function errorName(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as SdkErrorLike;
  // Network errors come wrapped as a plain `Error` with the system code (ECONNREFUSED) beside it.
  return (
    e.Code ?? (e.name !== undefined && e.name !== 'Error' ? e.name : undefined) ?? e.code ?? e.name ?? 'Error'
  );
}

function httpStatus(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null
    ? (err as SdkErrorLike).$metadata?.httpStatusCode
    : undefined;
}

/** A 404 about the key (not the bucket). HEAD answers carry no body, so their 404 has no code. */
function isMissingKey(err: unknown, op: Op): boolean {
  const name = errorName(err);
  if (name === 'NoSuchKey') return true;
  if (name === 'NoSuchBucket') return false;
  return httpStatus(err) === 404 && (op === 'head' || op === 'get' || op === 'getRange' || op === 'delete');
}

function isInvalidRange(err: unknown): boolean {
  return errorName(err) === 'InvalidRange' || httpStatus(err) === 416;
}

/** Errors of a body stream (reset, socket timeout, premature close) that a fresh request may fix. */
function isStreamError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  if ((err as SdkErrorLike).$metadata !== undefined) return false; // an SDK error: the SDK already retried
  const code = (err as SdkErrorLike).code;
  const name = (err as SdkErrorLike).name;
  return (
    name === 'TimeoutError' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ETIMEDOUT' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNREFUSED' ||
    name === 'AbortError'
  );
}

/** `bytes 10-14/256` → 256; undefined when absent or `*`. */
function totalSize(contentRange: string | undefined): number | undefined {
  const m = contentRange ? /\/(\d+)\s*$/.exec(contentRange) : null;
  return m ? Number(m[1]) : undefined;
}

function rangeStart(contentRange: string | undefined): number | undefined {
  const m = contentRange ? /^bytes\s+(\d+)-/.exec(contentRange) : null;
  return m ? Number(m[1]) : undefined;
}

/** Reads a GetObject body into one array, checking it against Content-Length. */
async function readBody(out: GetObjectCommandOutput, key: string): Promise<Uint8Array> {
  const stream = out.Body as Readable | undefined;
  const announced = out.ContentLength;
  if (stream === undefined) {
    if (announced) throw new ShortBodyError(`${key}: no body, ${announced} bytes announced`);
    return new Uint8Array(0);
  }
  if (announced !== undefined) {
    const into = new Uint8Array(announced);
    let at = 0;
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      if (at + chunk.length > announced) {
        stream.destroy();
        throw new ShortBodyError(`${key}: body longer than the announced ${announced} bytes`);
      }
      into.set(chunk, at);
      at += chunk.length;
    }
    if (at !== announced) throw new ShortBodyError(`${key}: body of ${at} bytes, ${announced} announced`);
    return into;
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
