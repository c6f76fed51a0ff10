import { Controller, Get, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Inject } from '@nestjs/common';
import { invalid, notFound } from '@quarry/common';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { validateBody } from './openapi-validation';
import { userView } from './users.controller';

/** The current user (`GET/PUT /v2/user`, `GET /v1/user`). Answered for API tokens too: clients call it on setup. */
@Controller()
export class UserController {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  @Get('v2/user')
  @Access({ tokens: 'any', noOrgRequired: true })
  async currentV2(@Req() request: FastifyRequest) {
    return userView(await this.currentUser(request));
  }

  /** Renames the caller's user (`{name}`). */
  @Put('v2/user')
  @Access({ tokens: 'any', noOrgRequired: true })
  async renameV2(@Req() request: FastifyRequest) {
    const body = validateBody<{ name: string }>('PUT /user', jsonBodyOf(request));
    if (body.name.trim() === '') throw invalid('name: must not be empty', { code: 'user_invalid' });
    const user = await this.currentUser(request);
    return userView(await this.storage.metastore.users.update(user.id, { name: body.name }));
  }

  @Get('v1/user')
  @Access({ tokens: 'any', noOrgRequired: true })
  async currentV1(@Req() request: FastifyRequest) {
    const user = await this.currentUser(request);
    return { id: user.id, name: user.name, emails: [user.email], role: user.role, permissions: [] };
  }

  private async currentUser(request: FastifyRequest) {
    const user = await this.storage.metastore.users.get(principalOf(request).userId);
    if (!user) throw notFound('the user of this token was not found', { code: 'user_not_found' });
    return user;
  }
}
