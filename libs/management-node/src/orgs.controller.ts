import { Controller, Get, HttpCode, Inject, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { invalid, notFound } from '@quarry/common';
import type { OrgRecord } from '@quarry/metastore';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, AuthService, type Regions, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { NotImplemented, notImplementedBody } from './not-implemented';
import { validateBody } from './openapi-validation';

const SINGLE_ORG =
  'a Quarry installation serves exactly one organization (created at first start); run another installation for another org';
const NO_PROVISIONING = 'temporary agent organizations with claim URLs are an Axiom Cloud feature';

/** An effectively unlimited number for license limits (uint64 fields; kept within JSON-safe integers). */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/**
 * The Org schema of v2.json for the one org. Billing and license fields describe a self-hosted
 * installation: plan `enterprise`, no payments, no limits.
 */
export function orgView(org: OrgRecord, primaryEmail: string, regions: Regions) {
  const since = org.createdAt;
  const license = {
    id: `quarry-${org.id}`,
    tier: 'enterprise',
    issuer: 'quarry',
    issuedTo: org.name,
    issuedAt: since,
    validFrom: since,
    expiresAt: '9999-12-31T23:59:59Z',
    monthlyIngestGb: UNLIMITED,
    monthlyQueryGbHours: UNLIMITED,
    apiRateLimitPerSecond: UNLIMITED,
    maxUsers: UNLIMITED,
    maxDatasets: UNLIMITED,
    maxMonitors: UNLIMITED,
    maxFields: UNLIMITED,
    maxEndpoints: UNLIMITED,
    maxQueryWindowSeconds: UNLIMITED,
    maxAuditWindowSeconds: UNLIMITED,
    withAuths: [],
    features: {},
    billingPeriodStart: since,
    billingPeriodEnd: '9999-12-31T23:59:59Z',
    defaultEdgeDeployment: regions.home,
    edgeDeployments: regions.known(),
  };
  return {
    id: org.id,
    name: org.name,
    plan: 'enterprise',
    planCreated: since,
    lastUsageSync: since,
    paymentStatus: 'na',
    license,
    primaryEmail,
    defaultEdgeDeployment: regions.home,
    metaCreated: since,
  };
}

/**
 * `/v2/orgs` for the single-org case. Listing and reading need any valid token (v2.json); renaming needs
 * `billing|update`, the org-administration capability of the capability model (v2.json names none).
 */
@Controller('v2/orgs')
export class OrgsController {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly auth: AuthService,
  ) {}

  @Get()
  @Access({ tokens: 'any', noOrgRequired: true })
  async list() {
    return [await this.view()];
  }

  @Post()
  @NotImplemented(SINGLE_ORG)
  @Access({ tokens: 'any', noOrgRequired: true })
  create() {
    return notImplementedBody(SINGLE_ORG);
  }

  @Post('provision')
  @NotImplemented(NO_PROVISIONING)
  @Access({ tokens: 'any', noOrgRequired: true })
  provision() {
    return notImplementedBody(NO_PROVISIONING);
  }

  @Get(':id')
  @Access({ tokens: 'any', noOrgRequired: true })
  async get(@Param('id') id: string) {
    return this.view(id);
  }

  @Put(':id')
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['billing', 'update'] })
  async update(@Param('id') id: string, @Req() request: FastifyRequest) {
    const body = validateBody<{ name: string }>('PUT /orgs/{id}', jsonBodyOf(request));
    if (body.name.trim() === '') throw invalid('name: must not be empty', { code: 'org_invalid' });
    await this.view(id);
    await this.storage.metastore.orgs.rename(body.name);
    this.auth.invalidate();
    return this.view(id);
  }

  private async view(id?: string) {
    const org = await this.storage.metastore.orgs.get();
    if (!org || (id !== undefined && id !== org.id))
      throw notFound(`org "${id ?? ''}" not found`, { code: 'org_not_found' });
    const owner = (await this.storage.metastore.users.list()).find((u) => u.role === 'owner');
    return orgView(org, owner?.email ?? '', this.storage.regions);
  }
}
