import { logLevel, type LogEntry, type logCreator } from 'kafkajs';
import { errorCodes } from 'kafkajs/src/protocol/error';
import type { Logger } from 'pino';

type PinoLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Protocol errors of normal consumer-group life: a member joining or leaving makes the
 * coordinator answer the others' heartbeats, commits and joins with these, and kafkajs rejoins
 * on its own. kafkajs logs them at ERROR (every response error) or WARN; they are info.
 */
const GROUP_MEMBERSHIP = new Set([
  'REBALANCE_IN_PROGRESS',
  'MEMBER_ID_REQUIRED',
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'NOT_COORDINATOR_FOR_GROUP',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'GROUP_LOAD_IN_PROGRESS',
]);

/**
 * kafkajs hands its log functions only the text of an error (`error: e.message`); its own
 * protocol error table turns that text back into the protocol error, so entries are classified
 * by Kafka's error type and retriability, not by matching words.
 */
const PROTOCOL_ERRORS = new Map(errorCodes.map((e) => [e.message, e]));

const LEVELS: Partial<Record<logLevel, PinoLevel>> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * The level a kafkajs entry is logged at: group-membership errors at info, other retriable
 * protocol errors (kafkajs retries them; what still fails reaches our code) at most at warn,
 * everything else at kafkajs's own level.
 */
export function kafkaEntryLevel(entry: LogEntry): {
  level: PinoLevel;
  errorType: string | undefined;
} {
  const own = LEVELS[entry.level] ?? 'info';
  const error: unknown = entry.log.error;
  const protocol = typeof error === 'string' ? PROTOCOL_ERRORS.get(error) : undefined;
  if (!protocol) return { level: own, errorType: undefined };
  if (GROUP_MEMBERSHIP.has(protocol.type)) return { level: 'info', errorType: protocol.type };
  const level = protocol.retriable && own === 'error' ? 'warn' : own;
  return { level, errorType: protocol.type };
}

/**
 * kafkajs's logCreator on a pino logger: one JSON line per entry, in the process's shape, with
 * `component: "kafkajs"`, the kafkajs namespace and the entry's fields (broker, groupId, ...).
 */
export function kafkaLogCreator(logger: Logger): logCreator {
  const log = logger.child({ component: 'kafkajs' });
  return () => (entry) => {
    const { level, errorType } = kafkaEntryLevel(entry);
    if (!log.isLevelEnabled(level)) return;
    const { timestamp: _timestamp, logger: _logger, message, ...fields } = entry.log;
    const extra = errorType ? { kafka_error: errorType } : {};
    log[level]({ namespace: entry.namespace, ...fields, ...extra }, message);
  };
}

/** What kafkajs should produce for `logger`: debug entries only when they would be logged. */
export function kafkaLogLevel(logger: Logger): logLevel {
  return logger.isLevelEnabled('debug') ? logLevel.DEBUG : logLevel.INFO;
}
