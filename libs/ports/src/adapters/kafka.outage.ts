import { KafkaJSError } from 'kafkajs';
import { recogniseOutages } from '@verity/common';

/**
 * kafkajs's outage errors are its retriable ones (a broker unreachable, a leader moving, a
 * request timing out). KafkaJSNumberOfRetriesExceeded is not retriable itself but carries the
 * retriable error as its `cause`, where `infraOutageOf` finds it.
 */
function isKafkaOutage(error: object): boolean {
  return error instanceof KafkaJSError && error.retriable;
}

/** Makes kafkajs's outage errors known to `infraOutageOf` (@verity/common). */
export function recogniseKafkaOutages(): void {
  recogniseOutages('kafka', isKafkaOutage);
}
