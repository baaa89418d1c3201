/** Row types of the database, for the rest of the code (which must not import the Prisma client itself). */
export type {
  ApiToken as ApiTokenRow,
  BenchRepo as BenchRepoRow,
  FailureLabel as FailureLabelRow,
  Instance as InstanceRow,
  Job as JobRow,
  JobLog as JobLogRow,
  Revalidation as RevalidationRow,
  Run as RunRow,
  Step as StepRow,
  Submission as SubmissionRow,
  TestResult as TestResultRow,
  WebhookDelivery as WebhookDeliveryRow,
  WorkflowRun as WorkflowRunRow,
} from './generated/client.js';
