import { randomUUID } from 'node:crypto';
import type { Prisma } from '../client.js';
import type { NewSubmission } from './submissions.js';

/** A SWE-sweep subtask run of a candidate submission. */
export interface NewSubtaskSubmission extends NewSubmission {
  parentSubmissionId: string;
  subtaskId: string;
}

export interface SweepRepository {
  /** Inserts the subtask runs of a candidate (one statement); returns their ids in input order. */
  createSubtaskSubmissions(rows: NewSubtaskSubmission[]): Promise<string[]>;
  /** Subtask runs already created for a candidate: subtask id → submission id. */
  subtaskSubmissionsOf(parentSubmissionId: string): Promise<Map<string, string>>;
}

export function createSweepRepository(prisma: Prisma): SweepRepository {
  return {
    async createSubtaskSubmissions(rows) {
      if (rows.length === 0) return [];
      const data = rows.map((row) => ({ id: randomUUID(), ...row }));
      await prisma.submission.createMany({ data });
      return data.map((row) => row.id);
    },
    async subtaskSubmissionsOf(parentSubmissionId) {
      const rows = await prisma.submission.findMany({ where: { parentSubmissionId }, select: { id: true, subtaskId: true }, orderBy: { createdAt: 'asc' } });
      return new Map(rows.flatMap((row) => (row.subtaskId === null ? [] : [[row.subtaskId, row.id] as const])));
    },
  };
}
