import { Controller, Get, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Inject } from '@nestjs/common';
import { notFound } from '@quarry/common';
import { Access } from '../auth/access.decorator';
import { principalOf } from '../auth/auth.guard';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';

/** The current user (`GET /v2/user`, `GET /v1/user`). Answered for API tokens too: clients call it on setup. */
@Controller()
export class UserController {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  @Get('v2/user')
  @Access({ tokens: 'any', noOrgRequired: true })
  async currentV2(@Req() request: FastifyRequest) {
    const user = await this.currentUser(request);
    return { id: user.id, name: user.name, email: user.email, role: { id: user.role, name: user.role } };
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
