import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { RedisConnection } from './connection.js';
import { QUEUE_NAMES } from './payloads.js';

/** Where bull-board is mounted (operators only: the dashboard's auth marks every route under it `operator`). */
export const BULL_BOARD_PATH = '/ui/queues';

/**
 * Mounts bull-board (the BullMQ operators' board) at {@link BULL_BOARD_PATH} on its own queue handles, closed with
 * the app. Jobs carry ids and domain ids only (no patches, no secrets), so the board shows nothing a token could not.
 */
export async function mountBullBoard(app: FastifyInstance, options: { connection: RedisConnection; prefix: string }): Promise<void> {
  const queues = QUEUE_NAMES.map((name) => new Queue(name, { connection: options.connection, prefix: options.prefix }));
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: false })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'ci-replay queues' } },
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((queue) => queue.close().catch(() => undefined)));
  });
}
