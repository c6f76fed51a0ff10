import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

function packages(kind: 'libs' | 'apps') {
  return fs
    .readdirSync(path.join(ROOT, kind))
    .filter((name) => fs.existsSync(path.join(ROOT, kind, name, 'package.json')))
    .map((name) => {
      const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, kind, name, 'package.json'), 'utf8'));
      return {
        kind,
        dir: name,
        name: pkg.name as string,
        deps: Object.keys(pkg.dependencies ?? {}),
        // Test code (specs) may also use the package's devDependencies: test servers, fakes.
        devDeps: Object.keys(pkg.devDependencies ?? {}),
      };
    });
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const IMPORT_RE = /(?:from\s+|import\s*\(\s*|require\(\s*)['"](@quarry\/[^'"]+)['"]/g;

/** DESIGN.md §3 as a test: packages import only declared, lower packages, by name, and never in a cycle. */
describe('dependency rules', () => {
  const all = [...packages('libs'), ...packages('apps')];
  const byName = new Map(all.map((p) => [p.name, p]));

  it('every @quarry import is a declared dependency and goes through the package exports', () => {
    const problems: string[] = [];
    for (const pkg of all) {
      for (const file of sourceFiles(path.join(ROOT, pkg.kind, pkg.dir, 'src'))) {
        const text = fs.readFileSync(file, 'utf8');
        for (const match of text.matchAll(IMPORT_RE)) {
          const target = match[1];
          const rel = path.relative(ROOT, file);
          if (target.split('/').length > 2) problems.push(`${rel}: deep import ${target}`);
          const name = target.split('/').slice(0, 2).join('/');
          const declared = file.endsWith('.spec.ts') ? [...pkg.deps, ...pkg.devDeps] : pkg.deps;
          if (name !== pkg.name && !declared.includes(name))
            problems.push(`${rel}: imports undeclared ${name}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('libs never depend on apps, and the package graph has no cycle', () => {
    for (const pkg of all) {
      if (pkg.kind !== 'libs') continue;
      for (const dep of pkg.deps) expect(byName.get(dep)?.kind ?? 'external').not.toBe('apps');
    }
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (name: string, trail: string[]) => {
      if (done.has(name)) return;
      if (visiting.has(name)) {
        cycles.push([...trail, name].join(' -> '));
        return;
      }
      visiting.add(name);
      for (const dep of byName.get(name)?.deps ?? []) if (byName.has(dep)) visit(dep, [...trail, name]);
      visiting.delete(name);
      done.add(name);
    };
    for (const pkg of all) visit(pkg.name, []);
    expect(cycles).toEqual([]);
  });

  it('keeps the parsers away from storage and execution, and execution away from the parsers', () => {
    const deps = (name: string) => byName.get(`@quarry/${name}`)?.deps ?? [];
    const storage = ['@quarry/log', '@quarry/objstore', '@quarry/metastore', '@quarry/block-format'];
    expect(deps('apl').filter((d) => d.startsWith('@quarry/'))).toEqual(['@quarry/common']);
    expect(deps('query-plan').filter((d) => [...storage, '@quarry/query-exec'].includes(d))).toEqual([]);
    expect(deps('query-exec').filter((d) => [...storage, '@quarry/apl'].includes(d))).toEqual([]);
  });
});
