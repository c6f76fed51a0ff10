import * as fs from 'node:fs';
import * as path from 'node:path';
import { validate } from 'dockerfile-utils';

/**
 * Docker does not run where the tests run, so the images are checked by reading their Dockerfiles: each
 * must be valid, and have the shape docs and the Helm charts rely on (one image for every role, role chosen
 * by the command; the operator's image beside it, built the same way).
 */
const ROOT = path.join(__dirname, '..', '..');
const TEXT = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const ROLES = ['ingest', 'query', 'compactor', 'management', 'gateway', 'standalone'];
const IMAGE = 'node:20-bookworm-slim';

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile, with comments dropped and continuation lines joined. */
function parse(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    pending += (pending ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (!line.endsWith('\\')) {
      logical.push(pending);
      pending = '';
    }
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ image: from[1], name: from[2], instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

const STAGES = parse(TEXT);
const FINAL = STAGES.at(-1)!;
const all = (stage: Stage, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1);
const runs = STAGES.flatMap((s) => all(s, 'RUN')).join('\n');

/** `COPY [--flag=value...] src... dest` as flags, sources and destination. */
function copyOf(args: string) {
  const words = args.split(/\s+/);
  const flags = Object.fromEntries(
    words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=') as [string, string]),
  );
  const paths = words.filter((w) => !w.startsWith('--'));
  return { flags, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

const globToRegExp = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`);
const trimSlash = (p: string) => p.replace(/\/+$/, '');

/**
 * The paths of the build tree that end up in the final image, as globs: a `COPY --from` of a file or
 * directory names it; a `COPY --from` of an assembly directory (`/out/`) stands for whatever that stage's
 * `cp` commands put into it.
 */
function shippedGlobs(stages: Stage[] = STAGES): string[] {
  const globs: string[] = [];
  for (const args of all(stages.at(-1)!, 'COPY')) {
    const { flags, sources } = copyOf(args);
    const from = stages.find((s) => s.name === flags.from);
    if (!from) continue;
    const workdir = trimSlash(last(from, 'WORKDIR') ?? '/');
    for (const source of sources) {
      const cps = all(from, 'RUN')
        .flatMap((run) => run.split(/&&|;/))
        .map((cmd) =>
          cmd
            .replace(/\$\([^)]*\)/g, '')
            .trim()
            .split(/\s+/),
        )
        .filter((words) => words[0] === 'cp' && trimSlash(words.at(-1)!) === trimSlash(source));
      if (cps.length === 0) globs.push(path.posix.relative(workdir, trimSlash(source)));
      for (const words of cps) globs.push(...words.slice(1, -1).filter((w) => !w.startsWith('-')));
    }
  }
  return globs;
}

describe('Dockerfile', () => {
  it('is valid: no errors or warnings from dockerfile-utils', () => {
    expect(validate(TEXT)).toEqual([]);
  });

  it('builds in a stage named build and runs in a slim stage of the same Node image', () => {
    expect(STAGES.map((s) => s.image)).toEqual(STAGES.map(() => IMAGE));
    const build = STAGES.find((s) => s.name === 'build');
    expect(build).toBeDefined();
    expect(FINAL).not.toBe(build);
    const buildRuns = all(build!, 'RUN').join('\n');
    expect(buildRuns).toMatch(/apt-get install[^\n]*\bpython3\b[^\n]*\bmake\b[^\n]*\bg\+\+/); // node-gyp: re2, zstd-napi
    expect(buildRuns).toMatch(/\bnpm install\b/);
    expect(buildRuns).toMatch(/\bnpm run build\b/);
    expect(buildRuns).toMatch(/\bnpm prune --omit=dev\b/);
    expect(runs).not.toMatch(/\bnpm ci\b/);
  });

  it('copies only from stages defined before the copy', () => {
    STAGES.forEach((stage, index) => {
      for (const args of all(stage, 'COPY')) {
        const from = copyOf(args).flags.from;
        if (from === undefined) continue;
        const earlier = STAGES.slice(0, index).map((s, i) => [s.name, String(i)]);
        expect(earlier.flat()).toContain(from);
      }
    });
  });

  it('ships every role app, the libs and production node_modules, and no sources', () => {
    const globs = shippedGlobs();
    const shipped = (p: string) => globs.some((g) => globToRegExp(g).test(p));
    for (const role of ROLES) {
      expect([role, shipped(`apps/${role}/dist`), shipped(`apps/${role}/package.json`)]).toEqual([
        role,
        true,
        true,
      ]);
    }
    for (const p of [
      'libs/server/dist',
      'libs/server/package.json',
      'libs/management-node/openapi',
      'node_modules',
    ]) {
      expect([p, shipped(p)]).toEqual([p, true]);
    }
    for (const p of ['libs/server/src', 'apps/gateway/src', 'test', 'libs/server/tsconfig.json']) {
      expect([p, shipped(p)]).toEqual([p, false]);
    }
  });

  it('finds a dist in every app and lib: `npm run build` builds each of them', () => {
    // TypeScript workspaces through tsconfig.build.json, the others (the console's Vite build) by name in
    // the root `build` script.
    const rootBuild = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.build;
    const build = `${fs.readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8')}\n${[
      ...rootBuild.matchAll(/-w (\S+)/g),
    ]
      .map((m: RegExpMatchArray) => `"${m[1]}"`)
      .join('\n')}`;
    const packages = ['apps', 'libs'].flatMap((kind) =>
      fs
        .readdirSync(path.join(ROOT, kind))
        .filter((name) => fs.existsSync(path.join(ROOT, kind, name, 'package.json')))
        .map((name) => `${kind}/${name}`),
    );
    expect(packages.filter((p) => !build.includes(`"${p}"`))).toEqual([]);
  });

  it('runs as a non-root numeric user under tini, standalone by default', () => {
    const user = last(FINAL, 'USER')!;
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
    expect(JSON.parse(last(FINAL, 'ENTRYPOINT')!)).toEqual(['/usr/bin/tini', '--']);
    expect(JSON.parse(last(FINAL, 'CMD')!)).toEqual([
      'node',
      '--initial-old-space-size=128',
      'apps/standalone/dist/main.js',
    ]);
    expect(last(FINAL, 'WORKDIR')).toBe('/app');
    expect(all(FINAL, 'EXPOSE')).toContain('8080');
  });

  it('has a HEALTHCHECK on /healthz that needs no curl (Node fetch)', () => {
    expect(healthcheckOf(FINAL)).toMatch(/fetch\(.*\/healthz/);
  });

  it('sets production env, a /data volume writable by that user, and OCI labels', () => {
    const env = all(FINAL, 'ENV').join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    expect(env).toMatch(/\bQUARRY_DATA_DIR=\/data\b/);
    // glibc arenas per worker thread grow RSS without bound otherwise (docs/operations.md, Memory).
    expect(env).toMatch(/\bMALLOC_ARENA_MAX=2\b/);
    expect(env).toMatch(/\bMALLOC_MMAP_THRESHOLD_=33554432\b/);
    expect(all(FINAL, 'VOLUME').join(' ')).toMatch(/"\/data"|(^|\s)\/data(\s|$)/);
    const uid = last(FINAL, 'USER')!.split(':')[0];
    expect(all(FINAL, 'RUN').join('\n')).toMatch(new RegExp(`chown ${uid}(:\\d+)? /data`));
    const labels = all(FINAL, 'LABEL').join(' ');
    for (const key of ['title', 'description', 'version', 'licenses'])
      expect(labels).toContain(`org.opencontainers.image.${key}=`);
  });
});

/** The command of the stage's HEALTHCHECK (exec form joined), checked for the --interval style options. */
function healthcheckOf(stage: Stage): string {
  const args = last(stage, 'HEALTHCHECK') ?? '';
  const command = /^((?:--[a-z-]+=\S+\s+)*)CMD\s+(.*)$/.exec(args);
  if (!command) return '';
  return (JSON.parse(command[2]) as string[]).join(' ');
}

describe('Dockerfile.operator', () => {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile.operator'), 'utf8');
  const stages = parse(text);
  const final = stages.at(-1)!;
  const build = stages.find((s) => s.name === 'build');

  it('is valid: no errors or warnings from dockerfile-utils', () => {
    expect(validate(text)).toEqual([]);
  });

  it('builds like the root Dockerfile: same Node image, npm install, build, prune to production deps', () => {
    expect(stages.map((s) => s.image)).toEqual(stages.map(() => IMAGE));
    expect(build).toBeDefined();
    const buildRuns = all(build!, 'RUN').join('\n');
    expect(buildRuns).toMatch(/\bnpm install\b/);
    expect(buildRuns).toMatch(/\bnpm run build\b/);
    expect(buildRuns).toMatch(/\bnpm prune --omit=dev\b/);
    expect(stages.flatMap((s) => all(s, 'RUN')).join('\n')).not.toMatch(/\bnpm ci\b/);
  });

  it('ships the operator app, the libs and production node_modules, and no other app or sources', () => {
    const globs = shippedGlobs(stages);
    const shipped = (p: string) => globs.some((g) => globToRegExp(g).test(p));
    for (const p of [
      'apps/operator/dist',
      'apps/operator/package.json',
      'libs/common/dist',
      'node_modules',
      'package.json',
    ]) {
      expect([p, shipped(p)]).toEqual([p, true]);
    }
    for (const p of [
      ...ROLES.map((role) => `apps/${role}/dist`),
      'apps/operator/src',
      'libs/common/src',
      'test',
    ]) {
      expect([p, shipped(p)]).toEqual([p, false]);
    }
  });

  it('runs node apps/operator/dist/main.js as non-root uid 10001 under tini, with a HEALTHCHECK', () => {
    expect(last(final, 'USER')).toMatch(/^10001(:10001)?$/);
    expect(all(final, 'RUN').join('\n')).toMatch(/useradd[^\n]*--uid 10001/);
    expect(JSON.parse(last(final, 'ENTRYPOINT')!)).toEqual(['/usr/bin/tini', '--']);
    expect(JSON.parse(last(final, 'CMD')!)).toEqual(['node', 'apps/operator/dist/main.js']);
    expect(all(final, 'RUN').join('\n')).toMatch(/apt-get install[^\n]*\btini\b/);
    expect(all(final, 'EXPOSE')).toContain('8080');
    expect(healthcheckOf(final)).toMatch(/fetch\(.*\/healthz/);
    expect(all(final, 'ENV').join(' ')).toMatch(/\bNODE_ENV=production\b/);
    const labels = all(final, 'LABEL').join(' ');
    for (const key of ['title', 'description', 'version', 'licenses'])
      expect(labels).toContain(`org.opencontainers.image.${key}=`);
  });
});

describe('.dockerignore', () => {
  it('keeps build output, data and history out of the build context', () => {
    const patterns = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.replace(/^\*\*\//, ''));
    for (const excluded of ['node_modules', 'dist', 'data', '.git', 'bench/out', 'coverage'])
      expect(patterns).toContain(excluded);
  });
});
