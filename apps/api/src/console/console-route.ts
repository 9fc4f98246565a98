import { RequestMapping, RequestMethod } from '@nestjs/common';
import {
  CONSOLE_API,
  CONSOLE_ROUTES,
  type ConsoleResponse,
  type ConsoleRouteName,
} from '@verity/contracts';

/** The path of every console controller: the route table's paths continue it. */
export const CONSOLE_CONTROLLER_PATH = CONSOLE_API.slice(1);

/**
 * Maps a handler to its route of the console's route table (libs/contracts/src/console-routes.ts):
 * method and path come from the table, and the compiler refuses a handler whose answer is not the
 * table's response type. test/e2e/console-routes.e2e.spec.ts checks that every route of the table
 * has a handler and that no console handler is mapped any other way.
 */
export function ConsoleRoute<N extends ConsoleRouteName>(name: N) {
  const { method, path } = CONSOLE_ROUTES[name];
  const mapping = RequestMapping({ method: RequestMethod[method], path });
  return <H extends (...args: never[]) => Promise<ConsoleResponse<N>>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    mapping(target, key, descriptor);
  };
}
