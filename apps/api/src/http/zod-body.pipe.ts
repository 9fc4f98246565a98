import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { VerityError } from '@verity/common';
import { firstBodyProblem, MAX_BODY_DEPTH } from './body-inspection';

/** Validates a JSON body with a zod schema; failures are 400 validation_error naming the field. */
export class ZodBodyPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new VerityError('validation_error', 'request body must be a JSON object');
    }
    const problem = firstBodyProblem(value);
    if (problem?.kind === 'too_deep')
      throw new VerityError(
        'validation_error',
        `request body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`,
      );
    if (problem?.kind === 'unstorable')
      throw new VerityError(
        'validation_error',
        `${problem.path || 'request body'} contains a NUL character or an unpaired surrogate`,
      );
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
