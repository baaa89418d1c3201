import { handleClosedPipes, LONG_RUNNING_COMMANDS } from './cli/closed-pipe.js';
import { runCli } from './cli/index.js';

handleClosedPipes({ keepRunning: LONG_RUNNING_COMMANDS.includes(process.argv[2] ?? '') });
await runCli(process.argv);
