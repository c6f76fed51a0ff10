import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './helm';
import { parseDocuments, validateObjects } from './render';

/**
 * The charts explain and guard themselves: README.md is generated from the `# --` comments of values.yaml
 * (and stays in date), and values.schema.json closes every block it describes.
 */
const CHARTS = ['quarry', 'quarry-operator'];

describe('chart documentation and schemas', () => {
  it('README.md of each chart is what charts/generate-readme.mjs writes (every value documented)', () => {
    const result = spawnSync(process.execPath, ['charts/generate-readme.mjs', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect([result.status, result.stderr]).toEqual([0, '']);
  });

  it.each(CHARTS)(
    '%s: values.schema.json sets additionalProperties: false on every block it describes',
    (chart) => {
      const schema = JSON.parse(
        fs.readFileSync(path.join(ROOT, 'charts', chart, 'values.schema.json'), 'utf8'),
      );
      const open: string[] = [];
      const walk = (node: unknown, where: string) => {
        if (!node || typeof node !== 'object') return;
        const n = node as Record<string, unknown>;
        if ((n.properties || n.patternProperties) && n.additionalProperties !== false) open.push(where);
        for (const [key, child] of Object.entries(n)) walk(child, `${where}/${key}`);
      };
      walk(schema, '#');
      expect(open).toEqual([]);
      expect(schema.additionalProperties).toBe(false);
    },
  );

  /** The README's "Deploy on Kubernetes" section, up to the next section. */
  const deploySection = (): string => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('## Deploy on Kubernetes');
    expect(start).toBeGreaterThanOrEqual(0);
    const end = readme.indexOf('\n## ', start + 1);
    return readme.slice(start, end < 0 ? undefined : end);
  };

  it("the README's Deploy on Kubernetes section deploys the operator first, then one release per region, then custom resources", () => {
    const text = deploySection();
    const operator = text.indexOf('helm install quarry-operator');
    const region = text.indexOf('helm install quarry-');
    const regionRelease = text.search(/helm install quarry-(eu|us)\b/);
    const customResources = text.search(/kind: (Dataset|Token)/);
    expect(operator).toBeGreaterThanOrEqual(0);
    expect(region).toBe(operator);
    expect(regionRelease).toBeGreaterThan(operator);
    expect(customResources).toBeGreaterThan(regionRelease);
  });

  it("the README's Deploy on Kubernetes custom resources are valid against the CRDs", () => {
    const text = deploySection();
    const heredocs = [...text.matchAll(/kubectl apply -f - <<'EOF'\n([\s\S]*?)\nEOF/g)].map((m) => m[1]);
    const resources = heredocs.flatMap((body) => parseDocuments(body));
    expect(resources.map((o) => o.kind)).toEqual(['Dataset', 'Token']);
    const crdDir = path.join(ROOT, 'charts', 'quarry-operator', 'crds');
    const crds = fs
      .readdirSync(crdDir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => parseDocuments(fs.readFileSync(path.join(crdDir, f), 'utf8')));
    expect(validateObjects([...resources, ...crds])).toEqual([]);
  });
});
