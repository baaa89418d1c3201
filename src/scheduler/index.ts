export { createScheduler, type Admission, type AdmitInput, type PoolStatus, type Scheduler, type SchedulerOptions } from './scheduler.js';
export { createSlotStore, type AccountLoad, type Placement, type SlotItem, type SlotStore } from './store/index.js';
export { countWorkflowJobs, type JobCount } from './job-count.js';
export { standardizedJobCount } from './standardized-jobs.js';
export { PRIORITIES, priorityOf, fairShareKey, type Priority } from './priority.js';
export { leastLoaded, readPoolFile, singleAccountPool, toPoolAccount, PLAN_CONCURRENT_JOBS, type PoolAccount, type PoolAccountInput } from './pool.js';
export { createPipelinePool, type PipelinePool, type PipelinePoolOptions } from './pipeline-pool.js';
export { loadPoolFile } from './load-pool-file.js';
