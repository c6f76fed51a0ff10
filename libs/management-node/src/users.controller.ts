import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { conflict, forbidden, invalid, notFound } from '@quarry/common';
import { USER_ROLES, type UserRecord, type UserRole } from '@quarry/metastore';
import { jsonBodyOf } from '@quarry/nest-kit';
import {
  Access,
  principalOf,
  AuthService,
  assertGrantable,
  builtInRoleCapabilities,
  type StorageRuntime,
  STORAGE_RUNTIME,
} from '@quarry/server';
import { validateBody } from './openapi-validation';

/** v2 User: the built-in role is rendered as `{id, name}` (Go maps the names none/read-only/user/admin/owner). */
export function userView(user: UserRecord) {
  return { id: user.id, name: user.name, email: user.email, role: { id: user.role, name: user.role } };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function builtInRole(role: string): UserRole {
  if ((USER_ROLES as readonly string[]).includes(role)) return role as UserRole;
  throw invalid(`role: must be one of ${USER_ROLES.map((r) => JSON.stringify(r)).join(', ')}`, {
    code: 'user_role_invalid',
  });
}

/**
 * `/v2/users`: the org's users. Custom capabilities come from RBAC roles and groups; the `role` here is
 * the built-in one. Granting `owner` needs an owner; the last owner can neither leave nor be demoted.
 */
@Controller('v2/users')
export class UsersController {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly auth: AuthService,
  ) {}

  private get users() {
    return this.storage.metastore.users;
  }

  @Get()
  @Access({ tokens: 'any', org: ['users', 'read'] })
  async list() {
    return (await this.users.list()).map(userView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['users', 'create'] })
  async create(@Req() request: FastifyRequest) {
    const body = validateBody<{ name: string; email: string; role: string }>(
      'POST /users',
      jsonBodyOf(request),
    );
    if (!EMAIL.test(body.email)) throw invalid('email: must be an email address', { code: 'user_invalid' });
    if (body.name.trim() === '') throw invalid('name: must not be empty', { code: 'user_invalid' });
    const role = builtInRole(body.role);
    await this.assertMayGrant(request, role);
    return userView(await this.users.create({ name: body.name, email: body.email, role }));
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['users', 'read'] })
  async get(@Param('id') id: string) {
    return userView(await this.existing(id));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['users', 'delete'] })
  async delete(@Param('id') id: string): Promise<void> {
    const user = await this.existing(id);
    if (user.role === 'owner') await this.assertAnotherOwner(user.id);
    await this.users.delete(id);
    this.auth.invalidate();
  }

  @Put(':id/role')
  @Access({ tokens: 'any', org: ['users', 'update'] })
  async setRole(@Param('id') id: string, @Req() request: FastifyRequest) {
    const body = validateBody<{ role: string }>('PUT /users/{id}/role', jsonBodyOf(request));
    const role = builtInRole(body.role);
    const user = await this.existing(id);
    await this.assertMayGrant(request, role);
    if (user.role === 'owner' && role !== 'owner') await this.assertAnotherOwner(user.id);
    const updated = await this.users.update(id, { role });
    this.auth.invalidate();
    return userView(updated);
  }

  private async existing(id: string): Promise<UserRecord> {
    const user = await this.users.get(id);
    if (!user) throw notFound(`user "${id}" not found`, { code: 'user_not_found' });
    return user;
  }

  /** Owners are made by owners; any other built-in role needs the caller to hold its capabilities. */
  private async assertMayGrant(request: FastifyRequest, role: UserRole): Promise<void> {
    assertGrantable(principalOf(request), builtInRoleCapabilities(role), `the built-in role "${role}"`);
    if (role !== 'owner') return;
    const caller = await this.users.get(principalOf(request).userId);
    if (caller?.role !== 'owner') {
      throw forbidden('only an owner can make another user an owner', { code: 'user_role_escalation' });
    }
  }

  private async assertAnotherOwner(userId: string): Promise<void> {
    const owners = (await this.users.list()).filter((u) => u.role === 'owner' && u.id !== userId);
    if (owners.length === 0) {
      throw conflict('the organization must keep at least one owner', { code: 'user_last_owner' });
    }
  }
}
