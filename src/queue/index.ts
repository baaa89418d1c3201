export { createRedis, pingRedis, type RedisConnection } from './connection.js';
export { createQueues, type EnqueueOptions, type EnsureOutcome, type JobPresence, type Queues } from './queues.js';
export { HandBack, isHandBack } from './hand-back.js';
export { jobId, payloadSchemas, QUEUE_NAMES, type Payload, type QueueName } from './payloads.js';
export { createWorkerSet, retryDelay, type GiveUps, type Processor, type Processors, type WorkerOutageOptions, type WorkerSet } from './workers.js';
export { isOutage, type OutagePolicy } from './outage.js';
