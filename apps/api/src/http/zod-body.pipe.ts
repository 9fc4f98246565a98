import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { VerityError } from '@verity/common';
import { firstUnstorablePath } from './storable-text';

/** Validates a JSON body with a zod schema; failures are 400 validation_error naming the field. */
export class ZodBodyPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new VerityError('validation_error', 'request body must be a JSON object');
    }
    const unstorable = firstUnstorablePath(value);
    if (unstorable !== undefined) {
      throw new VerityError(
        'validation_error',
        `${unstorable || 'request body'} contains a NUL character or an unpaired surrogate`,
      );
    }
    const parsed = this.schema.safeParse(value, { reportInput: true });
    if (parsed.success) return parsed.data;
    throw new VerityError('validation_error', describeIssue(parsed.error.issues[0]));
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type') {
    return issue.input === undefined
      ? `${field} is required`
      : `${field} must be a ${issue.expected}`;
  }
  return field ? `${field} ${issue.message}` : issue.message;
}
