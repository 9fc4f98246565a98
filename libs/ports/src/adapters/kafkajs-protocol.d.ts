/** kafkajs's table of Kafka protocol errors (not in its public typings; stable across 2.x). */
declare module 'kafkajs/src/protocol/error' {
  export const errorCodes: readonly {
    type: string;
    code: number;
    retriable: boolean;
    message: string;
  }[];
}

/** kafkajs's per-connection request queue (internal; patched by kafka.request-queue.ts). */
declare module 'kafkajs/src/network/requestQueue' {
  class RequestQueue {
    constructor(options: {
      maxInFlightRequests?: number | null;
      requestTimeout: number;
      enforceRequestTimeout: boolean;
      clientId: string;
      broker: string;
      logger: unknown;
    });
    pending: unknown[];
    inflight: Map<
      number,
      { sentAt: number | null; requestTimeout: number; timeoutRequest(): void }
    >;
    enforceRequestTimeout: boolean;
    requestTimeout: number;
    requestTimeoutIntervalId?: ReturnType<typeof setInterval>;
    isConnected(): boolean;
    throttledUntil: number;
    throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
    checkPendingRequests(): void;
    scheduleCheckPendingRequests(): void;
    scheduleRequestTimeoutCheck(): void;
    destroy(): void;
  }
  export = RequestQueue;
}

/** kafkajs's byte-at-a-time CRC-32C (internal; replaced by kafka.crc32c.ts). */
declare module 'kafkajs/src/protocol/recordBatch/crc32C/crc32C' {
  function crc32C(buffer: Buffer): number;
  export = crc32C;
}

/** kafkajs's record batch encoder, magic 2 (internal; its CRC is kafka.crc32c.ts's). */
declare module 'kafkajs/src/protocol/recordBatch/v0' {
  export function RecordBatch(batch: { records: unknown[] }): Promise<{ buffer: Buffer }>;
}

/** kafkajs's record encoder, magic 2 (internal). */
declare module 'kafkajs/src/protocol/recordBatch/record/v0' {
  function Record(record: { key: Buffer | null; value: Buffer | null }): unknown;
  export = Record;
}

/** kafkajs's protocol encoder (internal; its buffer growth is patched by kafka.encoder.ts). */
declare module 'kafkajs/src/protocol/encoder' {
  class Encoder {
    constructor(initialSize?: number);
    static nextPowerOfTwo(value: number): number;
    buf: Buffer;
    offset: number;
    get buffer(): Buffer;
    size(): number;
    ensureAvailable(length: number): void;
    writeInt32(value: number): this;
    writeBytes(value: Buffer | string | null): this;
    writeEncoder(value: Encoder): this;
  }
  export = Encoder;
}
