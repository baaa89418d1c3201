export { createRedis, pingRedis, type RedisConnection } from './connection.js';
export { createQueues, type EnqueueOptions, type Queues } from './queues.js';
export { jobId, payloadSchemas, QUEUE_NAMES, type Payload, type QueueName } from './payloads.js';
export { createWorkerSet, retryDelay, type Processor, type Processors, type WorkerSet } from './workers.js';
