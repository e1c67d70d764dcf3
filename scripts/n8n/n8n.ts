/**
 * Helpers to drive a REAL n8n (2.41.1, Node 24) from tests/scripts running on the system Node (20): what the
 * suites import from several modules, in one import. scripts/n8n/NOTES.md lists the modules and what was verified.
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
