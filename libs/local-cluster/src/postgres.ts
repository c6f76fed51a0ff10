import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort } from './ports';

/**
 * A PostgreSQL server from the machine's own binaries (Debian's `postgresql` package), for the local
 * cluster and the cluster tests: `initdb` into `dir` on first use, `pg_ctl start` on loopback, a
 * `quarry` role and database. Run as root (CI), the server runs as the `postgres` system user, because
 * PostgreSQL refuses to run as root.
 */
export class LocalPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly asPostgres: boolean,
  ) {}

  /** `postgres://quarry:quarry@127.0.0.1:<port>/quarry`. */
  get url(): string {
    return `postgres://quarry:quarry@127.0.0.1:${this.port}/quarry`;
  }

  /** Where the binaries are, or why there are none (with what to install). */
  static availability(): { ok: true; bin: string } | { ok: false; reason: string } {
    const root = '/usr/lib/postgresql';
    const versions = fs.existsSync(root)
      ? fs
          .readdirSync(root)
          .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
          .sort((a, b) => Number(a) - Number(b))
      : [];
    if (versions.length === 0) {
      return {
        ok: false,
        reason:
          'PostgreSQL server binaries not found: apt-get install -y postgresql (or set QUARRY_METASTORE_URL)',
      };
    }
    return { ok: true, bin: path.join(root, versions[versions.length - 1], 'bin') };
  }

  /** Starts (initializing `dir` the first time) on `port`, or a free port. */
  static async start(options: { dir: string; port?: number }): Promise<LocalPostgres> {
    const found = LocalPostgres.availability();
    if (!found.ok) throw new Error(found.reason);
    const asPostgres = process.getuid?.() === 0;
    const dir = path.resolve(options.dir);
    fs.mkdirSync(dir, { recursive: true });
    const port = options.port ?? (await freePort());
    const pg = new LocalPostgres(dir, port, found.bin, asPostgres);
    if (asPostgres) {
      execFileSync('chown', ['-R', 'postgres', dir]);
      const reach = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-w', dir], { cwd: '/' });
      if (reach.status !== 0) {
        throw new Error(
          `PostgreSQL runs as the postgres system user, which cannot reach ${dir}: make its parent ` +
            'directories searchable (chmod o+x) or set QUARRY_METASTORE_URL',
        );
      }
    }
    const data = path.join(dir, 'data');
    const fresh = !fs.existsSync(path.join(data, 'PG_VERSION'));
    if (fresh) pg.run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    // A server a crashed run left behind holds the directory: stop it first.
    if (fs.existsSync(path.join(data, 'postmaster.pid')))
      pg.run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'], true);
    pg.run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=200`,
      'start',
    ]);
    if (fresh) {
      pg.psql("CREATE USER quarry PASSWORD 'quarry'");
      pg.psql('CREATE DATABASE quarry OWNER quarry');
    }
    return pg;
  }

  /** Runs SQL as the superuser (tests use it to create databases). */
  psql(sql: string, database = 'postgres'): string {
    return this.run('psql', [
      '-q',
      '-t',
      '-A',
      '-h',
      '127.0.0.1',
      '-p',
      String(this.port),
      '-U',
      'postgres',
      '-d',
      database,
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      sql,
    ]);
  }

  /** A fresh, empty database owned by `quarry` on this server, as a URL. */
  createDatabase(name: string): string {
    this.psql(`CREATE DATABASE ${name} OWNER quarry`);
    return `postgres://quarry:quarry@127.0.0.1:${this.port}/${name}`;
  }

  async stop(): Promise<void> {
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', 'stop'], true);
  }

  private run(tool: string, args: string[], ignoreFailure = false): string {
    const file = path.join(this.bin, tool);
    const result = this.asPostgres
      ? spawnSync('runuser', ['-u', 'postgres', '--', file, ...args], { encoding: 'utf8', cwd: '/' })
      : spawnSync(file, args, { encoding: 'utf8' });
    if (result.status !== 0 && !ignoreFailure) {
      throw new Error(`${tool} failed (${result.status}): ${(result.stderr || result.stdout || '').trim()}`);
    }
    return result.stdout ?? '';
  }
}
