import { Controller, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { invalid, unavailable } from '@quarry/common';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access } from '../auth/access.decorator';
import { backupDataDir } from './data-dir-backup';
import type { StorageRuntime } from './storage-runtime';
import { STORAGE_RUNTIME } from './tokens';

/**
 * `POST /v1/admin/backup` `{ "dir": "/abs/path" }` (operators: an API token with every org capability):
 * a consistent copy of the running standalone server's data directory into `dir`, on the server's own
 * filesystem, while ingest continues (data-dir-backup.ts; `npm run backup`, docs/operations.md). Answers
 * the backup's manifest. The cluster shape has no data directory to copy: back up PostgreSQL and the
 * bucket instead (docs/operations.md).
 */
@Controller()
export class BackupController {
  private readonly logger = new Logger('backup');
  /** One backup at a time: two would hold the metastore twice as long for nothing. */
  private running = false;

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  @Post('v1/admin/backup')
  @HttpCode(200)
  @Access({ tokens: 'api', admin: true })
  async backup(@Req() request: FastifyRequest) {
    const { config } = this.storage;
    if (config.shape !== 'embedded')
      throw invalid('the cluster shape is backed up through PostgreSQL and the bucket (docs/operations.md)', {
        code: 'backup_not_embedded',
      });
    if (config.metastoreUrl)
      throw invalid(
        'the metastore is a PostgreSQL server: back it up with pg_dump, then copy the data directory (docs/operations.md)',
        { code: 'backup_external_metastore' },
      );
    const body = jsonBodyOf(request) as { dir?: unknown } | undefined;
    if (typeof body?.dir !== 'string' || body.dir === '')
      throw invalid('body must be { "dir": "<absolute path on the server>" }', { code: 'backup_bad_body' });
    if (this.running)
      throw unavailable('a backup is already running', { code: 'backup_running', retryAfterSeconds: 10 });
    this.running = true;
    try {
      const manifest = await backupDataDir(config.dataDir, this.storage.metastore, body.dir);
      this.logger.log(
        `backup of ${manifest.source} to ${body.dir}: ${manifest.files} files, ${manifest.bytes} bytes, metastore held ${manifest.heldMs} ms`,
      );
      return manifest;
    } finally {
      this.running = false;
    }
  }
}
