import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { notFound } from '@quarry/common';
import type { GroupInput, GroupRecord } from '@quarry/metastore';
import { jsonBodyOf } from '@quarry/nest-kit';
import {
  Access,
  principalOf,
  AuthService,
  assertGrantable,
  roleCapabilities,
  unionCapabilities,
  type StorageRuntime,
  STORAGE_RUNTIME,
} from '@quarry/server';
import { validateBody } from './openapi-validation';

/** GroupWithID as v2.json has it. Groups are never managed by an identity provider here. */
export function groupView(group: GroupRecord) {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: group.members,
    roles: group.roles,
    isManaged: false,
  };
}

interface GroupBody {
  name: string;
  description?: string;
  members?: string[] | null;
  roles?: string[] | null;
}

/** `isManaged` is read-only: accepted on input and ignored. */
function groupInputOf(operation: string, body: unknown): GroupInput {
  const group = validateBody<GroupBody>(operation, body);
  return {
    name: group.name,
    description: group.description,
    members: group.members ?? [],
    roles: group.roles ?? [],
  };
}

/** `/v2/rbac/groups`: members hold the union of the group's roles. Writes need `rbac|create` (v2.json). */
@Controller('v2/rbac/groups')
export class GroupsController {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly auth: AuthService,
  ) {}

  private get groups() {
    return this.storage.metastore.groups;
  }

  @Get()
  @Access({ tokens: 'any', org: ['rbac', 'read'] })
  async list() {
    return (await this.groups.list()).map(groupView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['rbac', 'create'] })
  async create(@Req() request: FastifyRequest) {
    const group = await this.groups.create(
      await this.checked(groupInputOf('POST /rbac/groups', jsonBodyOf(request)), request),
    );
    this.auth.invalidate();
    return groupView(group);
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['rbac', 'read'] })
  async get(@Param('id') id: string) {
    const group = await this.groups.get(id);
    if (!group) throw notFound(`group "${id}" not found`, { code: 'group_not_found' });
    return groupView(group);
  }

  @Put(':id')
  @Access({ tokens: 'any', org: ['rbac', 'create'] })
  async replace(@Param('id') id: string, @Req() request: FastifyRequest) {
    const input = groupInputOf('PUT /rbac/groups/{id}', jsonBodyOf(request));
    const group = await this.groups.replace(id, await this.checked(input, request));
    this.auth.invalidate();
    return groupView(group);
  }

  /**
   * A group hands its roles to its members, so the caller must hold every capability of those roles.
   * Unknown role ids are left to the repository, which names them in a 400.
   */
  private async checked(input: GroupInput, request: FastifyRequest): Promise<GroupInput> {
    const roles = await Promise.all((input.roles ?? []).map((id) => this.storage.metastore.roles.get(id)));
    const granted = unionCapabilities(roles.flatMap((role) => (role ? [roleCapabilities(role)] : [])));
    assertGrantable(principalOf(request), granted, `group "${input.name}"`);
    return input;
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['rbac', 'create'] })
  async delete(@Param('id') id: string): Promise<void> {
    await this.groups.delete(id);
    this.auth.invalidate();
  }
}
