/**
 * The main entry must run with production dependencies only (TypeBox, yaml): ajv, ajv-formats,
 * @bufbuild/cel and kubernetes-models are dev dependencies, reachable only through `./testing`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DEV_ONLY = ['@bufbuild/cel', 'ajv', 'ajv-formats', 'kubernetes-models'];

function productionSources(): string[] {
  return readdirSync(__dirname)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))
    .map((name) => join(__dirname, name));
}

function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/from '([^']+)'|require\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]);
}

describe('entry points', () => {
  it('keeps dev-only packages and ./testing out of the main entry', () => {
    const offending = productionSources().flatMap((path) =>
      importsOf(path)
        .filter(
          (spec) =>
            DEV_ONLY.some((pkg) => spec === pkg || spec.startsWith(`${pkg}/`)) ||
            spec.startsWith('./testing'),
        )
        .map((spec) => `${path.slice(__dirname.length + 1)} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('finds imports at all (so the check above cannot pass vacuously)', () => {
    expect(importsOf(join(__dirname, 'token.ts'))).toContain('@sinclair/typebox');
  });
});
