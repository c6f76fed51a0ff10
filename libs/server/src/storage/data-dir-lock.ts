import * as fs from 'node:fs';
import * as path from 'node:path';
import { unavailable } from '@quarry/common';

/**
 * One process per data directory: a second process on the same log segments and PGlite files would
 * corrupt both. The lock file holds the owner's pid; a lock left by a process that no longer runs (after a
 * crash or SIGKILL) is taken over.
 */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  static acquire(dataDir: string): DataDirLock {
    const file = path.join(dataDir, 'LOCK');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
        return new DataDirLock(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = Number(fs.readFileSync(file, 'utf8').trim());
        if (owner && owner !== process.pid && isRunning(owner)) {
          throw unavailable(
            `data directory ${dataDir} is in use by process ${owner}; stop it or set QUARRY_DATA_DIR to another directory`,
            { code: 'data_dir_locked' },
          );
        }
        fs.rmSync(file, { force: true }); // stale: its owner is gone
      }
    }
    throw unavailable(`could not lock data directory ${dataDir}`, { code: 'data_dir_locked' });
  }

  release(): void {
    fs.rmSync(this.file, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
