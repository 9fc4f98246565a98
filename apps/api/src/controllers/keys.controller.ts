import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiKeysService, keyReachOf, type Principal } from '@verity/accounts';
import {
  apiKeyListSchema,
  createKeyRequest,
  issuedApiKeySchema,
  type ApiKey,
  type CreateKeyRequest,
  type IssuedApiKey,
} from '@verity/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { uuidParam } from '../http/uuid-param';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { ApiDoc } from '../openapi/api-docs.decorators';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { NoStore } from '../http/no-store';

const TEST_KEY_FORBIDDEN = 'forbidden: a test key manages only test keys, never a live one';
const KEY_ID = { name: 'id', description: 'The key’s id (ApiKey.id)', schema: { type: 'string' } };

/**
 * Key management for the calling account. Key values appear only in create and rotate answers.
 * A test key lists and manages only test keys (docs/test-mode.md, "Keys"); a live key, all.
 */
@ApiTags('keys')
@Controller('v1/keys')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiDoc({
    operationId: 'listKeys',
    summary: 'List the account’s active keys (never their values); a test key lists only test keys',
    ok: apiKeyListSchema,
    okDescription: 'The active keys within the calling key’s reach, oldest first',
    errors: [401, 429],
  })
  async list(@CurrentPrincipal() principal: Principal): Promise<{ data: ApiKey[] }> {
    return { data: await this.keys.list(principal.accountId, keyReachOf(principal.mode)) };
  }

  @Post()
  @NoStore()
  @HttpCode(201)
  @ApiDoc({
    operationId: 'createKey',
    summary:
      'Create a key with a friendly name; the value is returned once. A test key creates only test keys',
    body: createKeyRequest,
    ok: issuedApiKeySchema,
    okDescription: 'The new key with its value (shown only here)',
    okStatus: 201,
    errors: [400, 401, 403, 422, 429],
    errorNotes: {
      403: TEST_KEY_FORBIDDEN,
      422: 'An active key of the same mode has the name, or the account has 100 active keys',
    },
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodBodyPipe(createKeyRequest)) body: CreateKeyRequest,
  ): Promise<IssuedApiKey> {
    return this.keys.create(
      principal.accountId,
      body.name,
      undefined,
      body.mode,
      keyReachOf(principal.mode),
    );
  }

  @Post(':id/rotate')
  @ApiParam(KEY_ID)
  @NoStore()
  @HttpCode(200)
  @ApiDoc({
    operationId: 'rotateKey',
    summary: 'Issue a new value for a key; the old value stops working at once',
    ok: issuedApiKeySchema,
    okDescription: 'The key with its new value (shown only here)',
    errors: [401, 403, 404, 429],
    errorNotes: { 403: TEST_KEY_FORBIDDEN },
  })
  rotate(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<IssuedApiKey> {
    return this.keys.rotate(principal.accountId, uuidParam(id, 'key'), keyReachOf(principal.mode));
  }

  @Delete(':id')
  @ApiParam(KEY_ID)
  @HttpCode(204)
  @ApiDoc({
    operationId: 'deleteKey',
    summary: 'Revoke a key for good',
    ok: null,
    okStatus: 204,
    okDescription: 'Revoked; no body',
    errors: [401, 403, 404, 429],
    errorNotes: { 403: TEST_KEY_FORBIDDEN },
  })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    await this.keys.revoke(principal.accountId, uuidParam(id, 'key'), keyReachOf(principal.mode));
  }
}
