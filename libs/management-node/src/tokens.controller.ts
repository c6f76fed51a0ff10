import { Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { TokenRecord } from '@quarry/metastore';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { asObject } from './dataset-validation';
import { TokensService } from './tokens.service';

/**
 * APIToken as the v2 schema has it. `viewCapabilities` is left out (strict Go decoding rejects it) and the
 * same function renders create, get and list, so clients comparing them see identical objects.
 */
export function tokenView(t: TokenRecord) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    expiresAt: t.expiresAt,
    datasetCapabilities: t.datasetCapabilities,
    orgCapabilities: t.orgCapabilities,
  };
}

@Controller('v2/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  @Access({ tokens: 'any', org: ['apiTokens', 'read'] })
  async list() {
    return (await this.tokens.list()).map(tokenView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['apiTokens', 'create'] })
  async create(@Req() request: FastifyRequest) {
    const { record, secret } = await this.tokens.create(asObject(jsonBodyOf(request)), principalOf(request));
    return { ...tokenView(record), token: secret };
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['apiTokens', 'read'] })
  async get(@Param('id') id: string) {
    return tokenView(await this.tokens.get(id));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['apiTokens', 'delete'] })
  async delete(@Param('id') id: string): Promise<void> {
    await this.tokens.delete(id);
  }

  @Post(':id/regenerate')
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['apiTokens', 'update'] })
  async regenerate(@Param('id') id: string, @Req() request: FastifyRequest) {
    const { record, secret } = await this.tokens.regenerate(
      id,
      asObject(jsonBodyOf(request)),
      principalOf(request),
    );
    return { ...tokenView(record), token: secret };
  }
}
