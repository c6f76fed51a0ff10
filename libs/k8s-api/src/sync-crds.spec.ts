import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { GENERATED_HEADER, crdFiles } from './crd-files';
import { CRDS_DIR, syncCrds } from './sync-crds';

describe('crds/ at the repository root', () => {
  it('equals the generator output (drift check)', () => {
    const report = syncCrds(CRDS_DIR, true);
    const stale = [...report.written, ...report.removed];
    if (stale.length > 0) {
      throw new Error(
        `crds/ is out of date (${stale.join(', ')}): run \`npm run sync\` and commit the result`,
      );
    }
    expect(report.unchanged).toHaveLength(crdFiles().length);
  });

  it('is written the way prettier formats it, so `npm run format:check` accepts generated files', () => {
    // The CLI in a child process: prettier 3 loads its plugins with dynamic import, which jest's VM refuses.
    const prettier = require.resolve('prettier/bin/prettier.cjs');
    const files = crdFiles().map((file) => join(CRDS_DIR, file.fileName));
    expect(() =>
      execFileSync(process.execPath, [prettier, '--check', ...files], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('holds YAML that parses back to the generated objects', () => {
    for (const file of crdFiles()) {
      expect(parse(readFileSync(join(CRDS_DIR, file.fileName), 'utf8'))).toEqual(file.crd);
    }
  });
});

describe('syncCrds', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'k8s-api-sync-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every CRD, then finds nothing to do', () => {
    const first = syncCrds(dir, false);
    expect(first.written.sort()).toEqual(
      crdFiles()
        .map((f) => f.fileName)
        .sort(),
    );
    const second = syncCrds(dir, false);
    expect(second.written).toEqual([]);
    expect(second.unchanged).toHaveLength(crdFiles().length);
  });

  it('reports a hand edit in dry-run mode without touching the file', () => {
    syncCrds(dir, false);
    const [file] = crdFiles();
    const path = join(dir, file.fileName);
    writeFileSync(path, file.text.replace('served: true', 'served: false'));
    expect(syncCrds(dir, true).written).toEqual([file.fileName]);
    expect(readFileSync(path, 'utf8')).toContain('served: false');
  });

  it('removes stale generated CRDs but keeps files it did not write', () => {
    syncCrds(dir, false);
    writeFileSync(
      join(dir, 'widgets.quarry.dev.yaml'),
      `${GENERATED_HEADER}kind: CustomResourceDefinition\n`,
    );
    writeFileSync(join(dir, 'handmade.quarry.dev.yaml'), 'kind: CustomResourceDefinition\n');
    expect(syncCrds(dir, false).removed).toEqual(['widgets.quarry.dev.yaml']);
    expect(readdirSync(dir)).toContain('handmade.quarry.dev.yaml');
  });
});
