import { Body, Controller, HttpCode, Param, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '@verity/accounts';
import {
  createKeyRequest,
  type ConsoleApiKeys,
  type CreateKeyRequest,
  type IssuedApiKey,
} from '@verity/contracts';
import { uuidParam } from '../http/uuid-param';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { ConsoleRoute, CONSOLE_CONTROLLER_PATH } from './console-route';
import { ConsoleSessionGuard } from './console-session.guard';
import { NoStore } from '../http/no-store';

/** The account's API keys, managed from the console with the same rules as /v1/keys. */
@ApiExcludeController()
@Controller(CONSOLE_CONTROLLER_PATH)
@UseGuards(ConsoleSessionGuard)
export class ConsoleKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @ConsoleRoute('keys')
  async list(@Req() request: FastifyRequest): Promise<ConsoleApiKeys> {
    return { data: await this.keys.list(request.principal!.accountId) };
  }

  @ConsoleRoute('createKey')
  @NoStore()
  @HttpCode(201)
  create(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(createKeyRequest)) body: CreateKeyRequest,
  ): Promise<IssuedApiKey> {
    return this.keys.create(request.principal!.accountId, body.name, undefined, body.mode);
  }

  @ConsoleRoute('rotateKey')
  @NoStore()
  @HttpCode(200)
  rotate(@Req() request: FastifyRequest, @Param('id') id: string): Promise<IssuedApiKey> {
    return this.keys.rotate(request.principal!.accountId, uuidParam(id, 'key'));
  }

  @ConsoleRoute('revokeKey')
  @HttpCode(204)
  async revoke(@Req() request: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.keys.revoke(request.principal!.accountId, uuidParam(id, 'key'));
  }
}
