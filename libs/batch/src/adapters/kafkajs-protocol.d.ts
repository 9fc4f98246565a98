/** kafkajs's table of Kafka protocol errors (not in its public typings; stable across 2.x). */
declare module 'kafkajs/src/protocol/error' {
  export const errorCodes: readonly {
    type: string;
    code: number;
    retriable: boolean;
    message: string;
  }[];
}
