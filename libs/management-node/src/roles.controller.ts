import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { notFound } from '@quarry/common';
import type { RoleInput, RoleRecord } from '@quarry/metastore';
import { jsonBodyOf } from '@quarry/nest-kit';
import {
  Access,
  principalOf,
  AuthService,
  assertGrantable,
  roleCapabilities,
  type StorageRuntime,
  STORAGE_RUNTIME,
} from '@quarry/server';
import { validateBody } from './openapi-validation';

/** RoleWithID as v2.json has it. */
export function roleView(role: RoleRecord) {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    orgCapabilities: role.orgCapabilities,
    datasetCapabilities: role.datasetCapabilities,
    viewCapabilities: role.viewCapabilities,
    members: role.members,
  };
}

interface RoleBody {
  name: string;
  description?: string;
  orgCapabilities?: RoleInput['orgCapabilities'] | null;
  datasetCapabilities?: RoleInput['datasetCapabilities'] | null;
  viewCapabilities?: RoleInput['viewCapabilities'] | null;
  members?: string[] | null;
}

/** Validates the body against v2.json and refuses capabilities the caller does not hold itself. */
function roleInputOf(operation: string, request: FastifyRequest): RoleInput {
  const role = validateBody<RoleBody>(operation, jsonBodyOf(request));
  const orgCapabilities = role.orgCapabilities ?? {};
  const datasetCapabilities = role.datasetCapabilities ?? {};
  assertGrantable(
    principalOf(request),
    roleCapabilities({ orgCapabilities, datasetCapabilities }),
    `role "${role.name}"`,
  );
  const input: RoleInput = {
    name: role.name,
    description: role.description,
    orgCapabilities,
    datasetCapabilities,
    viewCapabilities: role.viewCapabilities ?? {},
    members: role.members ?? [],
  };
  return input;
}

/**
 * `/v2/rbac/roles`. Writes need `rbac|create` as v2.json says (its PUT and DELETE too); every change
 * clears the auth cache, since members' tokens act with the role's capabilities.
 */
@Controller('v2/rbac/roles')
export class RolesController {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly auth: AuthService,
  ) {}

  private get roles() {
    return this.storage.metastore.roles;
  }

  @Get()
  @Access({ tokens: 'any', org: ['rbac', 'read'] })
  async list() {
    return (await this.roles.list()).map(roleView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['rbac', 'create'] })
  async create(@Req() request: FastifyRequest) {
    const role = await this.roles.create(roleInputOf('POST /rbac/roles', request));
    this.auth.invalidate();
    return roleView(role);
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['rbac', 'read'] })
  async get(@Param('id') id: string) {
    const role = await this.roles.get(id);
    if (!role) throw notFound(`role "${id}" not found`, { code: 'role_not_found' });
    return roleView(role);
  }

  @Put(':id')
  @Access({ tokens: 'any', org: ['rbac', 'create'] })
  async replace(@Param('id') id: string, @Req() request: FastifyRequest) {
    const role = await this.roles.replace(id, roleInputOf('PUT /rbac/roles/{id}', request));
    this.auth.invalidate();
    return roleView(role);
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['rbac', 'create'] })
  async delete(@Param('id') id: string): Promise<void> {
    await this.roles.delete(id);
    this.auth.invalidate();
  }
}
