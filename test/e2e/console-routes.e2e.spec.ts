import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import {
  CONSOLE_API,
  CONSOLE_ROUTES,
  consoleRequest,
  type ConsoleArgs,
  type ConsoleRouteName,
} from '@verity/contracts';
import { startTestStack, type TestStack } from '@verity/testing';

/** `METHOD /path` of every handler Nest maps, read from the metadata its router reads. */
function nestRoutes(stack: TestStack): string[] {
  const scanner = new MetadataScanner();
  const asList = (path: unknown) => (Array.isArray(path) ? path : [path]) as string[];
  const routes: string[] = [];
  for (const module of stack.app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        const path: unknown = Reflect.getMetadata(PATH_METADATA, handler);
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        for (const base of asList(Reflect.getMetadata(PATH_METADATA, controller)))
          for (const own of asList(path))
            routes.push(`${method} /${`${base}/${own}`.split('/').filter(Boolean).join('/')}`);
      }
    }
  return routes;
}

const TABLE = Object.values(CONSOLE_ROUTES).map((r) => `${r.method} ${CONSOLE_API}${r.path}`);

/** A call of each route of the table with made-up parameters and an empty body. */
function anyCall(name: ConsoleRouteName) {
  const params = Object.fromEntries(
    [...CONSOLE_ROUTES[name].path.matchAll(/:(\w+)/g)].map(([, p]) => [
      p,
      '8b7c3a52-4a1e-4c55-9a5e-1f0c2b6d7e90',
    ]),
  );
  const args = [{ params, body: {} }] as unknown as ConsoleArgs<typeof name>;
  return consoleRequest(name, ...args);
}

describe('the console route table against the server', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack();
  });
  after(() => stack.close());

  it('Nest maps every route of the table and no other console route', () => {
    const mapped = nestRoutes(stack).filter((r) => r.split(' ')[1].startsWith(`${CONSOLE_API}/`));
    assert.deepEqual(
      mapped.filter((r) => !TABLE.includes(r)),
      [],
      'console routes missing from CONSOLE_ROUTES (libs/contracts/src/console-routes.ts)',
    );
    assert.deepEqual(
      TABLE.filter((r) => !mapped.includes(r)),
      [],
      'routes of CONSOLE_ROUTES no console controller handles (@ConsoleRoute)',
    );
  });

  it('Fastify serves each route of the table', () => {
    const fastify = stack.app.getHttpAdapter().getInstance();
    for (const route of Object.values(CONSOLE_ROUTES))
      assert.ok(
        fastify.hasRoute({ method: route.method, url: `${CONSOLE_API}${route.path}` }),
        `${route.method} ${route.path}`,
      );
  });

  it('every route answers a caller without a session with an error, never data', async () => {
    const names = Object.keys(CONSOLE_ROUTES) as ConsoleRouteName[];
    for (const name of names) {
      const { method, url } = anyCall(name);
      const response = await fetch(stack.client.baseUrl + url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      const body = (await response.json()) as { error?: { code: string } };
      assert.ok(response.status !== 404 && response.status < 500, `${name}: ${response.status}`);
      assert.equal(typeof body.error?.code, 'string', `${name} answered ${JSON.stringify(body)}`);
    }
    // The probe can fail: a path outside the table is the router's 404.
    const unknown = await fetch(`${stack.client.baseUrl}${CONSOLE_API}/no-such-route`);
    assert.equal(unknown.status, 404);
  });
});
