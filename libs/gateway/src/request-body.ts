import { PassThrough, Readable } from 'node:stream';

/** Query bodies up to this size are held in memory so a query can be sent again to another node. */
export const REPLAYABLE_BODY_BYTES = 1024 * 1024;

/** The client's request body failed (the client went away mid-upload); never the upstream's fault. */
export class ClientBodyError extends Error {
  readonly code = 'QUARRY_GATEWAY_CLIENT_BODY';
}

/**
 * How a request body is sent to upstreams, attempt after attempt. Each attempt gets its own stream:
 * undici destroys a request's body stream when the request fails, even when it failed to connect and read
 * nothing, so the client's stream is never handed over itself.
 */
export interface ForwardBody {
  /** The stream for the next attempt, or undefined when there is no body. */
  forAttempt(): Readable | undefined;
  /** True while no byte of the body has left the gateway: a failed connection can be retried. */
  readonly untouched: boolean;
  /** True when the whole body is in memory: an attempt that may have reached an upstream can be repeated. */
  readonly replayable: boolean;
}

export const NO_BODY: ForwardBody = { forAttempt: () => undefined, untouched: true, replayable: true };

/** A body held in memory, sent whole on every attempt. */
export function bufferedBody(bytes: Buffer): ForwardBody {
  return {
    forAttempt: () => Readable.from([bytes], { objectMode: false }),
    untouched: true,
    replayable: true,
  };
}

/**
 * A body streamed from `source` (the client's request) without buffering. Attempts get a stream that
 * starts reading `source` only when undici first reads it, so an attempt that failed to connect leaves
 * `source` untouched for the next one.
 */
export function streamedBody(source: Readable): ForwardBody {
  let touched = false;
  return {
    forAttempt: () => (touched ? failedAgain() : new LazyBody(source, () => (touched = true))),
    get untouched() {
      return !touched;
    },
    replayable: false,
  };
}

/** A stream that already failed: a body that was partly sent cannot be sent again. */
function failedAgain(): Readable {
  return new Readable({
    read() {
      this.destroy(new ClientBodyError('the request body was already partly sent'));
    },
  });
}

/** Relays `source` from its first read on; destroying it detaches from `source` without destroying that. */
class LazyBody extends Readable {
  private started = false;
  private ended = false;

  constructor(
    private readonly source: Readable,
    private readonly onStart: () => void,
  ) {
    super();
  }

  private readonly onData = (chunk: Buffer) => {
    if (!this.push(chunk)) this.source.pause();
  };
  private readonly onEnd = () => {
    this.ended = true;
    this.push(null);
  };
  private readonly onError = (err: Error) => {
    this.destroy(new ClientBodyError(`the client's request body failed: ${err.message}`));
  };
  private readonly onClose = () => {
    if (!this.ended) this.destroy(new ClientBodyError('the client closed the request before its body ended'));
  };

  override _read(): void {
    if (!this.started) {
      this.started = true;
      this.onStart();
      this.source.on('data', this.onData);
      this.source.once('end', this.onEnd);
      this.source.once('error', this.onError);
      this.source.once('close', this.onClose);
    }
    this.source.resume();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.source.off('data', this.onData);
    this.source.off('end', this.onEnd);
    this.source.off('error', this.onError);
    this.source.off('close', this.onClose);
    this.source.pause();
    callback(err);
  }
}

/**
 * Reads `source` up to `limit` bytes. A body that ends within the limit is answered whole (replayable);
 * a longer one is answered as a stream of what was read followed by the rest of `source`.
 */
export async function readReplayable(source: Readable, limit = REPLAYABLE_BODY_BYTES): Promise<ForwardBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  const complete = await new Promise<boolean>((resolve, reject) => {
    const done = (result: boolean | Error) => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        source.pause();
        done(false);
      }
    };
    const onEnd = () => done(true);
    const onError = (err: Error) =>
      done(new ClientBodyError(`the client's request body failed: ${err.message}`));
    const onClose = () => done(new ClientBodyError('the client closed the request before its body ended'));
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
  if (complete) return bufferedBody(Buffer.concat(chunks));
  // Too long to hold: what was read, then the rest, as one stream (sent once, like an ingest body).
  const joined = new PassThrough();
  for (const chunk of chunks) joined.write(chunk);
  source.pipe(joined);
  source.once('error', (err) => joined.destroy(err));
  return streamedBody(joined);
}
