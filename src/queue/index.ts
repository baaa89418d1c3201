export { createRedis, pingRedis, type RedisConnection } from './connection.js';
export { createQueues, type EnqueueOptions, type Queues } from './queues.js';
export { jobId, payloadSchemas, QUEUE_NAMES, type Payload, type QueueName } from './payloads.js';
export { createWorkerSet, retryDelay, type GiveUps, type Processor, type Processors, type WorkerOutageOptions, type WorkerSet } from './workers.js';
export { isOutage, type OutagePolicy } from './outage.js';
