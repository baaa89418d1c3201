export { submitSweepSubtasks, type SweepDeps, type SubtaskRun } from './submit-subtasks.js';
