/**
 * Helpers to drive a REAL n8n (2.41.1, Node 24) from tests/scripts running on the system Node (20).
 * One module per concern; this file gathers what the suites import from several of them:
 *
 *   runtime.ts   the cached Node 24 + n8n (install.sh)
 *   sandbox.ts   one n8n home (N8N_USER_FOLDER) with a quiet, offline environment
 *   packages.ts  npm pack, README's npm install route, which n8n-workflow the package loads
 *   cli.ts       export:nodes, import:*, publish:workflow, list:workflow, execute
 *   db.ts        stored executions, read from n8n's database
 *   server.ts    `n8n start` and `n8n worker` processes
 *   rest.ts      owner, login, credential test (internal REST, only where nothing stable does the job)
 *   proc.ts      free ports, daemons that never outlive the script
 *   queue.ts     queue mode: Redis + Postgres + a main + workers (see also redis.ts, postgres.ts, db.ts)
 *
 * See scripts/n8n/NOTES.md for what was verified and why.
 */
export { DEFAULT_N8N_VERSION, getRuntime, n8nOlderThan, wantedN8nVersion } from './runtime';
export { createSandbox, getFreePort, removeSandbox, type N8nSandbox } from './sandbox';
export { installPackage, packPackage } from './packages';
export {
	branches,
	executeWorkflow,
	exitNote,
	failureDetail,
	importCredentials,
	importWorkflows,
	listWorkflowIds,
	publishWorkflows,
	runCli,
	type CredentialImport,
	type ExecuteResult,
	type ExportedNodeType,
} from './cli';
export { storedExecutions, waitForExecutions, type StoredExecution } from './db';
export { startServer, type N8nServer } from './server';
export { DEFAULT_OWNER, login, RestSession, runFromTrigger, setupOwner } from './rest';
