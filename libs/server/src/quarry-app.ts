import 'reflect-metadata';
import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastify from 'fastify';
import { QuarryErrorFilter, QuarryLogger, registerRawBodyParser } from '@quarry/nest-kit';
import { AuthGuard } from './auth/auth.guard';
import { AuthService } from './auth/auth.service';
import { bootstrapIdentity, type BootstrapResult } from './auth/bootstrap';
import type { QuarryConfig } from './config/config';
import { HealthController } from './health/health.controller';
import { QuarryMetrics } from './observability/metrics';
import { MetricsController } from './observability/metrics.controller';
import { ROLE_REGISTRY } from './role-registry';
import { StorageRuntime } from './storage/storage-runtime';
import { QUARRY_CONFIG, STORAGE_RUNTIME } from './storage/tokens';

@Module({})
class QuarryModule {
  static forRoles(config: QuarryConfig, storage: StorageRuntime): DynamicModule {
    const roles = config.roles.map((role) => ROLE_REGISTRY[role]);
    return {
      module: QuarryModule,
      controllers: [HealthController, MetricsController, ...roles.flatMap((r) => r.controllers)],
      providers: [
        { provide: QUARRY_CONFIG, useValue: config },
        { provide: STORAGE_RUNTIME, useValue: storage },
        { provide: QuarryMetrics, useValue: new QuarryMetrics(storage) },
        AuthService,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: QuarryErrorFilter },
        ...roles.flatMap((r) => r.providers),
      ],
    };
  }
}

export interface QuarryApp {
  app: NestFastifyApplication;
  storage: StorageRuntime;
  identity: BootstrapResult;
  url: string;
  close(): Promise<void>;
}

/** Opens storage, bootstraps identity, replays the log and starts serving HTTP. */
export async function startQuarry(config: QuarryConfig): Promise<QuarryApp> {
  const logger = new QuarryLogger(levelsFrom(config.logLevel));
  Logger.overrideLogger(logger);
  const storage = await StorageRuntime.open(config);
  let identity: BootstrapResult;
  try {
    identity = await identityFor(storage, config);
  } catch (err) {
    await storage.close();
    throw err;
  }
  // The raw-body parser must be in place before Nest registers routes: Fastify copies parsers into each
  // encapsulation context when it is created, so a parser added later never reaches the routes.
  const instance = fastify({ bodyLimit: config.maxBodyBytes, routerOptions: { maxParamLength: 1024 } });
  registerRawBodyParser(instance, config.maxBodyBytes);
  const adapter = new FastifyAdapter(instance);
  const app = await NestFactory.create<NestFastifyApplication>(
    QuarryModule.forRoles(config, storage),
    adapter,
    {
      logger,
      // Bodies are read as raw bytes by our own parser (registerRawBodyParser).
      bodyParser: false,
    },
  );
  await app.init();
  // Listen before replaying so /readyz can say "not ready yet"; ingest answers 503 until replay is done.
  await app.listen(config.port, config.host);
  await storage.start();
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    storage,
    identity,
    url,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}

/** Arbitrary constant: serializes the bootstrap of management nodes sharing one PostgreSQL server. */
const BOOTSTRAP_LOCK_KEY = 7_311_043;

/**
 * The standalone server and management nodes bootstrap the organization and the first tokens (in one
 * transaction under an advisory lock, so two management replicas starting together create them once);
 * the other roles of a cluster only read who the organization is.
 */
async function identityFor(storage: StorageRuntime, config: QuarryConfig): Promise<BootstrapResult> {
  if (config.shape === 'embedded') return bootstrapIdentity(storage.metastore, config);
  if (config.roles.includes('management')) {
    return storage.metastore.transaction(async (tx) => {
      await tx.db.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
      return bootstrapIdentity(tx, config);
    });
  }
  const org = await storage.metastore.orgs.get();
  const owner = (await storage.metastore.users.list()).find((u) => u.role === 'owner');
  return { orgId: org?.id ?? '', userId: owner?.id ?? '' };
}

function levelsFrom(level: QuarryConfig['logLevel']) {
  const order = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
  return order.slice(0, order.indexOf(level) + 1) as ('error' | 'warn' | 'log' | 'debug' | 'verbose')[];
}
