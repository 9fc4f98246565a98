import { VerityError } from '@verity/common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a resource, so it is simply not found. */
export function uuidParam(id: string, what: string): string {
  if (!UUID.test(id)) throw new VerityError('not_found', `${what} ${id} not found`);
  return id;
}
