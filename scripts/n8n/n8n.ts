/**
 * Helpers to drive a REAL n8n (2.41.1, Node 24) from tests/scripts running on the system Node (20).
 * One module per concern; this file gathers them so `import { … } from './n8n'` keeps working.
 *
 *   runtime.ts   the cached Node 24 + n8n (install.sh)
 *   sandbox.ts   one n8n home (N8N_USER_FOLDER) with a quiet, offline environment
 *   packages.ts  npm pack, README's npm install route, which n8n-workflow the package loads
 *   cli.ts       export:nodes, import:*, publish:workflow / unpublish:workflow, list:workflow, execute
 *   db.ts        stored executions, read from n8n's database
 *   server.ts    `n8n start` and `n8n worker` processes
 *   rest.ts      owner, login, credential test (internal REST, only where nothing stable does the job)
 *   proc.ts      free ports, daemons that never outlive the script
 *   queue.ts     queue mode: Redis + Postgres + a main + workers (see also redis.ts, postgres.ts, db.ts)
 *
 * See scripts/n8n/NOTES.md for what was verified and why.
 *
 * Typical use:
 *   const runtime = getRuntime({ install: true });
 *   const sb = await createSandbox({ runtime });
 *   await installPackage(sb, await packPackage(repoRoot));
 *   const nodes = await exportNodes(sb);
 *   await importCredentials(sb, [{ id: 'cred1', name: 'x', type: 'phpRankApi', data: { ... } }]);
 *   await importWorkflows(sb, [workflowJson]);
 *   const result = await executeWorkflow(sb, workflowJson.id);
 *   const server = await startServer(sb);
 *   const session = await setupOwner(server);
 *   const test = await session.testCredential({ id: 'cred1' });   // { status: 'OK' | 'Error', message }
 *   await server.stop();
 *   await removeSandbox(sb);
 */
export {
	DEFAULT_N8N_VERSION,
	defaultCacheDir,
	getRuntime,
	INSTALL_SCRIPT,
	isRuntimeInstalled,
	n8nOlderThan,
	requireFromN8n,
	wantedN8nVersion,
	type N8nRuntime,
} from './runtime';
export {
	createSandbox,
	getFreePort,
	QUIET_OFFLINE_ENV,
	removeSandbox,
	type N8nSandbox,
} from './sandbox';
export {
	installPackage,
	packPackage,
	README_INSTALL,
	resolveWorkflowPackage,
	type WorkflowResolution,
} from './packages';
export {
	branches,
	executeWorkflow,
	exportNodes,
	failureDetail,
	importCredentials,
	importWorkflows,
	listWorkflowIds,
	parseExecuteOutput,
	publishWorkflows,
	runCli,
	unpublishWorkflow,
	type CliResult,
	type CredentialImport,
	type ExecuteResult,
	type ExecutionItem,
	type ExecutionRun,
	type ExportedNodeType,
} from './cli';
export { storedExecutions, waitForExecution, waitForExecutions, type StoredExecution } from './db';
export { startServer, startWorker, type N8nServer, type N8nWorker } from './server';
export {
	DEFAULT_OWNER,
	login,
	RestSession,
	runFromTrigger,
	setupOwner,
	type CredentialTestResult,
	type OwnerInfo,
	type RestResponse,
} from './rest';
