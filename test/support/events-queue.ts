import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { testRedisUrl } from './test-database.js';

/** The delivery GUIDs carried by the waiting jobs of the `events` queue under `prefix` (one id or a batch per job). */
export async function waitingDeliveryIds(prefix: string): Promise<string[]> {
  const queue = new Queue('events', { connection: new Redis(testRedisUrl(), { maxRetriesPerRequest: null }), prefix });
  try {
    const jobs = await queue.getWaiting(0, 10_000);
    return jobs.flatMap((job) => (job.data.source === 'deliveries' ? (job.data.deliveryIds as string[]) : [job.data.deliveryId as string]));
  } finally {
    await queue.close();
  }
}
