/**
 * A Kafka-protocol cluster for tests and the local cluster: librdkafka's mock brokers (real TCP listeners
 * on 127.0.0.1 with logs, offsets and consumer groups in memory), run as a child process built from
 * `native/mockkafka.c`. No real broker can be installed on the build machines (reference/infra.md §Q2).
 *
 * The binary is compiled on first use with gcc against librdkafka-dev and cached under
 * `node_modules/.cache/quarry/mockkafka-<hash of the source>`, so an edited source is rebuilt.
 *
 * Fault injection (`down`, `up`, `setLeader`, `setRtt`, `createTopic`) goes to the child's stdin as line
 * commands, answered in order on its stdout. The child dies with its parent (PR_SET_PDEATHSIG), so a crashed
 * test run leaves no brokers behind; it does not exit when its stdin closes, because the long-lived local
 * cluster CLI may run it detached from any command stream.
 * Known gaps of the mock: no CreateTopics/DeleteTopics (topics are created by `start` and `createTopic`),
 * no idempotent or transactional producers, nothing is durable, and replicas exist only in metadata.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

export interface MockKafkaTopic {
  name: string;
  partitions: number;
  /** Only reported in metadata: the mock keeps one copy. Default 1, at most the number of brokers. */
  replicationFactor?: number;
}

export interface MockKafkaOptions {
  /** Number of brokers, ids 1..brokers. Default 3. */
  brokers?: number;
  topics?: MockKafkaTopic[];
  /** Where the compiled binary is cached. Default `node_modules/.cache/quarry` of the enclosing checkout. */
  binaryDir?: string;
  /** How long to wait for the cluster to print its bootstrap list. Default 15 s. */
  startTimeoutMs?: number;
}

const INSTALL_HINT = 'apt-get install -y gcc librdkafka-dev';
const HEADER_DIRS = ['/usr/include', '/usr/local/include', '/opt/homebrew/include'];
const SOURCE = path.resolve(__dirname, '..', 'native', 'mockkafka.c');

/**
 * Whether `MockKafkaCluster.start` can build the mock here: gcc on PATH and librdkafka's mock header
 * installed. Synchronous, so a spec file can pick `describe` or `describe.skip` while jest collects tests.
 */
export function mockKafkaAvailability(): { ok: true } | { ok: false; reason: string } {
  const missing: string[] = [];
  if (!onPath('gcc')) missing.push('gcc is not on PATH');
  if (!mockHeaderInstalled()) missing.push('librdkafka/rdkafka_mock.h was not found (librdkafka-dev)');
  if (!fs.existsSync(SOURCE)) missing.push(`the launcher source ${SOURCE} is missing`);
  if (missing.length === 0) return { ok: true };
  return { ok: false, reason: `mock Kafka unavailable: ${missing.join('; ')}. Install: ${INSTALL_HINT}` };
}

export class MockKafkaCluster {
  /** Comma-separated `host:port` list, as kafka clients take it. */
  readonly bootstrap: string;
  readonly brokers: string[];
  private readonly replies: ((line: string) => void)[] = [];
  private commands: Promise<unknown> = Promise.resolve();
  private readonly exited: Promise<void>;
  private stderrTail = '';
  private stopped = false;
  private readonly killOnExit = () => this.child.kill('SIGKILL');

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    bootstrap: string,
    lines: AsyncIterator<string>,
    exited: Promise<void>,
  ) {
    this.bootstrap = bootstrap;
    this.brokers = bootstrap.split(',');
    this.exited = exited;
    process.once('exit', this.killOnExit);
    child.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-2000);
    });
    void (async () => {
      for (;;) {
        const next = await lines.next();
        if (next.done) break;
        this.replies.shift()?.(next.value);
      }
      // The process ended: fail every command still waiting for a reply.
      for (const reply of this.replies.splice(0)) reply('ERR mock Kafka exited');
    })();
  }

  /** Builds (if needed) and starts a mock cluster; resolves once its listeners accept connections. */
  static async start(options: MockKafkaOptions = {}): Promise<MockKafkaCluster> {
    const brokers = options.brokers ?? 3;
    if (!Number.isInteger(brokers) || brokers < 1) throw new Error(`brokers must be >= 1, got ${brokers}`);
    const binary = await buildMockKafka(options.binaryDir);
    const args = [String(brokers), ...(options.topics ?? []).map((t) => topicArg(t, brokers))];
    const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    // 'error' without 'exit' when the binary cannot be spawned at all.
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    let stderr = '';
    const collect = (d: Buffer) => (stderr += d.toString());
    child.stderr.on('data', collect);
    const lines = readLines(child.stdout);
    const timeoutMs = options.startTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const first = await Promise.race([
        lines.next(),
        new Promise<never>((_, reject) => {
          child.once('error', reject);
          timer = setTimeout(() => reject(new Error(`no bootstrap list within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      if (first.done || !/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/.test(first.value)) {
        throw new Error(`unexpected first line ${JSON.stringify(first.done ? '' : first.value)}`);
      }
      child.stderr.off('data', collect);
      return new MockKafkaCluster(child, first.value, lines, exited);
    } catch (err) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`mock Kafka did not start: ${(err as Error).message}; stderr: ${stderr.trim()}`, {
        cause: err,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Disconnects broker `broker` (1-based; -1 for every broker) and refuses new connections. */
  async down(broker: number): Promise<void> {
    return this.command(`down ${int(broker)}`);
  }

  async up(broker: number): Promise<void> {
    return this.command(`up ${int(broker)}`);
  }

  /** Moves the leader of a partition (broker -1: leaderless). */
  async setLeader(topic: string, partition: number, broker: number): Promise<void> {
    return this.command(`leader ${name(topic)} ${int(partition)} ${int(broker)}`);
  }

  /** Delays every response of `broker` (-1: all) by `ms`. */
  async setRtt(broker: number, ms: number): Promise<void> {
    return this.command(`rtt ${int(broker)} ${int(ms)}`);
  }

  /** Creates a topic (the mock has no CreateTopics API). Rejects if it exists. */
  async createTopic(topic: MockKafkaTopic): Promise<void> {
    const rf = Math.min(topic.replicationFactor ?? 1, this.brokers.length);
    return this.command(`topic ${name(topic.name)} ${int(topic.partitions)} ${int(rf)}`);
  }

  /** Stops the cluster; idempotent. Clients connected to it see their connections close. */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      process.off('exit', this.killOnExit);
      this.child.kill('SIGTERM');
      // It exits at once on SIGTERM (no teardown, see mockkafka.c); a wedged one is killed.
      const kill = setTimeout(() => this.child.kill('SIGKILL'), 2_000);
      void this.exited.then(() => clearTimeout(kill));
    }
    await this.exited;
  }

  /** Commands are answered in order, one line each; send the next only after the previous reply. */
  private command(line: string): Promise<void> {
    const run = this.commands.then(
      () =>
        new Promise<void>((resolve, reject) => {
          if (this.stopped || this.child.exitCode !== null) {
            reject(new Error(`mock Kafka is stopped (command: ${line})`));
            return;
          }
          this.replies.push((reply) => {
            if (reply === 'OK') resolve();
            else
              reject(
                new Error(`mock Kafka: ${line}: ${reply.replace(/^ERR /, '')} ${this.stderrTail.trim()}`),
              );
          });
          this.child.stdin.write(`${line}\n`);
        }),
    );
    this.commands = run.catch(() => undefined);
    return run;
  }
}

/** Compiles `native/mockkafka.c` unless a binary of the same source is cached; returns its path. */
export async function buildMockKafka(binaryDir?: string): Promise<string> {
  const availability = mockKafkaAvailability();
  if (!availability.ok) throw new Error(availability.reason);
  const source = fs.readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = binaryDir ?? defaultCacheDir();
  const binary = path.join(dir, `mockkafka-${hash}`);
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  // Build under a unique name and rename: parallel jest workers may build at the same time.
  const tmp = `${binary}.${process.pid}.${Date.now()}.tmp`;
  try {
    await promisify(execFile)('gcc', ['-O2', '-o', tmp, SOURCE, '-lrdkafka'], { timeout: 60_000 });
    fs.renameSync(tmp, binary);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    const stderr = (err as { stderr?: string }).stderr ?? (err as Error).message;
    throw new Error(`could not build the mock Kafka launcher (${INSTALL_HINT}): ${stderr.trim()}`, {
      cause: err,
    });
  }
  return binary;
}

function defaultCacheDir(): string {
  // The checkout's node_modules, found from this file in src/ or dist/; a temp dir outside a checkout.
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules')))
      return path.join(dir, 'node_modules', '.cache', 'quarry');
    if (path.dirname(dir) === dir) return path.join(os.tmpdir(), 'quarry-cache');
  }
}

function onPath(command: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      fs.accessSync(path.join(dir, command), fs.constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

function mockHeaderInstalled(): boolean {
  return HEADER_DIRS.some((dir) => fs.existsSync(path.join(dir, 'librdkafka', 'rdkafka_mock.h')));
}

function topicArg(topic: MockKafkaTopic, brokers: number): string {
  const rf = Math.min(topic.replicationFactor ?? 1, brokers);
  return `${name(topic.name)}:${int(topic.partitions)}:${int(rf)}`;
}

/** Guards the line protocol: a topic name with spaces or colons would be split by the launcher. */
function name(topic: string): string {
  if (!/^[A-Za-z0-9._-]{1,249}$/.test(topic))
    throw new Error(`invalid Kafka topic name ${JSON.stringify(topic)}`);
  return topic;
}

function int(n: number): number {
  if (!Number.isInteger(n)) throw new Error(`expected an integer, got ${n}`);
  return n;
}

async function* readLines(stream: NodeJS.ReadableStream): AsyncGenerator<string> {
  let buffered = '';
  for await (const chunk of stream) {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
}
