import 'reflect-metadata';
import { Logger, Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastify from 'fastify';
import { registerConsole } from '@quarry/console-static';
import {
  Admission,
  loadAdmissionLimits,
  QuarryErrorFilter,
  QuarryLogger,
  registerAdmission,
  registerRawBodyParser,
  slowClientServerFactory,
  type AdmissionLimits,
} from '@quarry/nest-kit';
import { AuthGuard } from './auth/auth.guard';
import { AuthService } from './auth/auth.service';
import { bootstrapIdentity, type BootstrapResult } from './auth/bootstrap';
import type { QuarryConfig, Role } from './config/config';
import { HealthController } from './health/health.controller';
import { BackupController } from './storage/backup.controller';
import { QuarryMetrics } from './observability/metrics';
import { MetricsController } from './observability/metrics.controller';
import { VirtualFieldCache } from './catalog/vfields.cache';
import { StorageRuntime } from './storage/storage-runtime';
import { QUARRY_CONFIG, STORAGE_RUNTIME } from './storage/tokens';

/** The HTTP surface of one role (Loki's module map): its controllers and the services they need. */
export interface RoleModule {
  controllers: Type[];
  providers: Provider[];
}

/**
 * The surfaces an app can serve, by role (the compactor has none: the storage runtime runs it). Each
 * role's lives in its own lib (`@quarry/ingest-node`, `@quarry/query-node`, `@quarry/management-node`);
 * an app hands over the ones it runs, so a role's process loads only its role's code.
 */
export type RoleModules = Partial<Record<Exclude<Role, 'compactor'>, RoleModule>>;

@Module({})
class QuarryModule {
  static forRoles(
    config: QuarryConfig,
    storage: StorageRuntime,
    modules: RoleModules,
    admission: Admission,
  ): DynamicModule {
    const roles: RoleModule[] = [];
    for (const role of config.roles) {
      if (role === 'compactor') continue;
      const module = modules[role];
      if (!module)
        throw new Error(`this app cannot run the ${role} role: its module was not given to startQuarry`);
      roles.push(module);
    }
    // Dedup: a service two roles share (a standalone runs every role) is provided once.
    const providers = [...new Set(roles.flatMap((r) => r.providers))];
    return {
      module: QuarryModule,
      controllers: [
        HealthController,
        MetricsController,
        BackupController,
        ...roles.flatMap((r) => r.controllers),
      ],
      providers: [
        { provide: QUARRY_CONFIG, useValue: config },
        { provide: STORAGE_RUNTIME, useValue: storage },
        { provide: QuarryMetrics, useValue: new QuarryMetrics(storage, admission) },
        AuthService,
        // Query and management read virtual fields; shared when both run in one process.
        VirtualFieldCache,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: QuarryErrorFilter },
        ...providers,
      ],
    };
  }
}

export interface QuarryApp {
  app: NestFastifyApplication;
  storage: StorageRuntime;
  identity: BootstrapResult;
  url: string;
  /** The node's admission control (overload limits), e.g. for tests that hold a query slot. */
  admission: Admission;
  close(): Promise<void>;
}

/** Opens storage, bootstraps identity, replays the log and starts serving HTTP. */
export async function startQuarry(
  config: QuarryConfig,
  modules: RoleModules,
  options: { admission?: Partial<AdmissionLimits> } = {},
): Promise<QuarryApp> {
  // Overload limits (libs/nest-kit/src/admission-config.ts): read before anything opens, so a bad one fails fast.
  const admission = new Admission({ ...loadAdmissionLimits(process.env), ...options.admission });
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
  const instance = fastify({
    bodyLimit: config.maxBodyBytes,
    routerOptions: { maxParamLength: 1024 },
    serverFactory: slowClientServerFactory(admission.limits),
  });
  registerRawBodyParser(instance, config.maxBodyBytes);
  registerAdmission(instance, admission);
  // The standalone server serves the web console at `/` (in a cluster the gateway does).
  if (config.shape === 'embedded') registerConsole(instance);
  const adapter = new FastifyAdapter(instance);
  const app = await NestFactory.create<NestFastifyApplication>(
    QuarryModule.forRoles(config, storage, modules, admission),
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
    admission,
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
