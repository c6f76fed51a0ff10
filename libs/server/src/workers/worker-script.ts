import * as fs from 'node:fs';
import * as path from 'node:path';
import { internal } from '@quarry/common';

/**
 * `dist/workers/<file>` of this package, whether the caller runs from `src/` (tests) or `dist/`: worker
 * threads always load compiled JavaScript, so the package must be built first (`npm test` builds before
 * it runs the suites).
 */
export function workerScript(file: string): string {
  const packageRoot = path.resolve(__dirname, '..', '..');
  const script = path.join(packageRoot, 'dist', 'workers', file);
  if (!fs.existsSync(script)) {
    throw internal(`worker script ${script} is missing: build the server package (npm run build)`);
  }
  return script;
}
