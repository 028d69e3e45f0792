import { forgetIssuedStamps } from '../src/lib/ids.js';

// Runs before each test file (vitest.config.ts `setupFiles`). Test files share a process and
// its loaded modules; what a process keeps for its whole life starts over here, as it would in
// a process of its own. Each file's test clock starts at its own now, so the id and event
// stamps a file before it handed out (perhaps months ahead) must not hold this file's back.
forgetIssuedStamps();
