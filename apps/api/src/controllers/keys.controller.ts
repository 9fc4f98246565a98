import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  ApiKeysService,
  type ApiKeyView,
  type IssuedApiKey,
  type Principal,
} from '@verity/accounts';
import {
  apiKeySchema,
  createKeyRequest,
  issuedApiKeySchema,
  type CreateKeyRequest,
} from '@verity/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { uuidParam } from '../http/uuid-param';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { ApiDoc } from '../openapi/api-docs.decorators';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { NoStore } from '../http/no-store';

/** Key management for the calling account. Key values appear only in create and rotate answers. */
@ApiTags('keys')
@Controller('v1/keys')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiDoc({
    summary: 'List the account’s active keys (never their values)',
    ok: z.object({ data: z.array(apiKeySchema) }),
    errors: [401, 429],
  })
  async list(@CurrentPrincipal() principal: Principal): Promise<{ data: ApiKeyView[] }> {
    return { data: await this.keys.list(principal.accountId) };
  }

  @Post()
  @NoStore()
  @HttpCode(201)
  @ApiDoc({
    summary: 'Create a key with a friendly name; the value is returned once',
    body: createKeyRequest,
    ok: issuedApiKeySchema,
    okStatus: 201,
    errors: [400, 401, 422, 429],
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodBodyPipe(createKeyRequest)) body: CreateKeyRequest,
  ): Promise<IssuedApiKey> {
    return this.keys.create(principal.accountId, body.name);
  }

  @Post(':id/rotate')
  @NoStore()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Issue a new value for a key; the old value stops working at once',
    ok: issuedApiKeySchema,
    errors: [401, 404, 429],
  })
  rotate(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<IssuedApiKey> {
    return this.keys.rotate(principal.accountId, uuidParam(id, 'key'));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiDoc({
    summary: 'Revoke a key for good',
    ok: z.null(),
    okStatus: 204,
    errors: [401, 404, 429],
  })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    await this.keys.revoke(principal.accountId, uuidParam(id, 'key'));
  }
}
