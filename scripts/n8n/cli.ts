/**
 * n8n's command line (Node 24, cwd = the sandbox's user folder): export:nodes, import:credentials,
 * import:workflow, publish:workflow / unpublish:workflow, list:workflow, execute. Imports and publishes take
 * effect when n8n (re)starts.
 */
import { spawn } from 'child_process';
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import {
	addMissingWorkflowVersions,
	type ExecutionItem,
	type ExecutionRun,
	storedExecutions,
} from './db';

export type { ExecutionItem, ExecutionRun };
import { getFreePort, killGroup, tail } from './proc';
import type { N8nSandbox } from './sandbox';

export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	/** killed by this harness after `timeoutMs` (otherwise a signal came from elsewhere) */
	timedOut: boolean;
	stdout: string;
	stderr: string;
	durationMs: number;
}

/**
 * Run `n8n <args>` with Node 24 in the sandbox. stdout/stderr go to files, not pipes
 * (n8n exits with process.exit(); large outputs written to a pipe get truncated).
 * A fresh task-runner broker port is picked per call, so several n8n processes can coexist.
 */
export async function runCli(
	sb: N8nSandbox,
	args: string[],
	opts: { timeoutMs?: number; env?: Record<string, string>; check?: boolean } = {},
): Promise<CliResult> {
	const logDir = await fs.promises.mkdtemp(path.join(sb.userFolder, 'cli-'));
	const outFile = path.join(logDir, 'stdout.txt');
	const errFile = path.join(logDir, 'stderr.txt');
	const out = fs.openSync(outFile, 'w');
	const err = fs.openSync(errFile, 'w');
	const started = Date.now();
	const env: NodeJS.ProcessEnv = {
		...sb.env,
		N8N_RUNNERS_BROKER_PORT: String(await getFreePort()),
		...opts.env,
	};
	const child = spawn(sb.runtime.nodeBin, [sb.runtime.n8nBin, ...args], {
		cwd: sb.userFolder,
		env,
		stdio: ['ignore', out, err],
		detached: true, // own process group: the timeout kills n8n and its task runners
	});
	fs.closeSync(out);
	fs.closeSync(err);
	const timeoutMs = opts.timeoutMs ?? 120_000;
	let timedOut = false;
	const { code, signal } = await new Promise<{
		code: number | null;
		signal: NodeJS.Signals | null;
	}>((resolve, reject) => {
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child, 'SIGKILL');
		}, timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on('exit', (c, s) => {
			clearTimeout(timer);
			resolve({ code: c, signal: s });
		});
	});
	const result: CliResult = {
		code,
		signal,
		timedOut,
		stdout: await fs.promises.readFile(outFile, 'utf8'),
		stderr: await fs.promises.readFile(errFile, 'utf8'),
		durationMs: Date.now() - started,
	};
	await fs.promises.rm(logDir, { recursive: true, force: true });
	if (opts.check && code !== 0) {
		throw new Error(
			`n8n ${args.join(' ')} exited with ${code ?? signal}\n--- stdout ---\n${tail(result.stdout)}\n--- stderr ---\n${tail(result.stderr)}`,
		);
	}
	return result;
}

export interface ExportedNodeType {
	name: string; // e.g. "n8n-nodes-phprank.phpRank" (package name + "." + description.name)
	displayName: string;
	version: number | number[];
	credentials?: Array<{ name: string; displayName?: string; required?: boolean }>;
	properties: Array<Record<string, unknown>>;
	[key: string]: unknown;
}

/**
 * `n8n export:nodes` → every node type n8n loaded (922 built-in + yours; 17 MB JSON; 15 s on a loaded machine).
 * Under `npm run test:e2e:all` (E2E_TARBALL set) the list of one n8n version and that tarball is the same in
 * every suite: the first suite's is kept beside the tarball and read by the others.
 */
export async function exportNodes(sb: N8nSandbox): Promise<ExportedNodeType[]> {
	const tarball = process.env.E2E_TARBALL;
	const shared =
		tarball &&
		path.join(
			path.dirname(tarball),
			`export-nodes-${sb.runtime.n8nVersion}-${path.basename(tarball)}.json`,
		);
	if (shared && fs.existsSync(shared))
		return JSON.parse(await fs.promises.readFile(shared, 'utf8')) as ExportedNodeType[];
	const file = path.join(sb.userFolder, `nodes-${Date.now()}.json`);
	await runCli(sb, ['export:nodes', `--output=${file}`], { check: true });
	const text = await fs.promises.readFile(file, 'utf8');
	if (shared) await fs.promises.rename(file, shared);
	else await fs.promises.rm(file, { force: true });
	return JSON.parse(text) as ExportedNodeType[];
}

/** `n8n <command> --input=<file>`, `data` written to a file in the sandbox for it and removed after. */
async function importFile(sb: N8nSandbox, command: string, data: object[]): Promise<void> {
	const file = path.join(sb.userFolder, `${command.replace(':', '-')}-${Date.now()}.json`);
	await fs.promises.writeFile(file, JSON.stringify(data));
	try {
		await runCli(sb, [command, `--input=${file}`], { check: true });
	} finally {
		await fs.promises.rm(file, { force: true });
	}
}

export interface CredentialImport {
	/** any unique string; workflows reference it in nodes[].credentials.<type>.id */
	id: string;
	name: string;
	/** credential type name, e.g. "phpRankApi" */
	type: string;
	/** PLAIN (unencrypted) data; n8n encrypts it with the sandbox key on import */
	data: Record<string, unknown>;
}

export async function importCredentials(
	sb: N8nSandbox,
	credentials: CredentialImport[],
): Promise<void> {
	await importFile(sb, 'import:credentials', credentials);
}

/**
 * Workflows need `id`, `name`, `nodes`, `connections` (and ideally `settings: {}`, `active: false`). One without
 * a `versionId` gets a fresh one, as `n8n export:workflow` writes it: n8n 2.0 stores the JSON as it is and its
 * database refuses a workflow without one (`NOT NULL constraint failed: workflow_entity.versionId`).
 */
export async function importWorkflows(sb: N8nSandbox, workflows: object[]): Promise<void> {
	const withVersions = workflows.map((w) =>
		'versionId' in w && w.versionId ? w : { ...w, versionId: randomUUID() },
	);
	await importFile(sb, 'import:workflow', withVersions);
	const ids = withVersions
		.map((w) => (w as { id?: string }).id)
		.filter((id): id is string => typeof id === 'string');
	const added = addMissingWorkflowVersions(sb, ids);
	if (added.length) {
		console.log(
			`       note: n8n ${sb.runtime.n8nVersion}'s import:workflow stored no version of ${added.join(', ')}; added the ` +
				'workflow_history row later n8n writes on import, so that publish:workflow works (db.ts addMissingWorkflowVersions)',
		);
	}
}

export interface ExecuteResult {
	/** status "success", and exit code 0 (or see `diedAfterRun`) */
	ok: boolean;
	code: number | null;
	signal: NodeJS.Signals | null;
	/**
	 * n8n printed its whole run, then its process died by a signal that was not this harness's timeout (seen once
	 * in CI: `exit null` 12 s in, after a successful run was printed). The run is the outcome; the caller notes it.
	 */
	diedAfterRun: boolean;
	/** the IRun JSON n8n prints (undefined if it could not be found in stdout) */
	run: ExecutionRun | undefined;
	/** runData[nodeName][0].data.main[0] items per node (successful nodes only) */
	outputs: Record<string, ExecutionItem[]>;
	/** resultData.error.message, when the execution failed */
	errorMessage?: string;
	stdout: string;
	stderr: string;
	durationMs: number;
}

/** What to note when n8n died after printing its run (`diedAfterRun`), else undefined. */
export function exitNote(res: ExecuteResult): string | undefined {
	if (!res.diedAfterRun) return undefined;
	return `n8n execute printed its whole run (status ${res.run?.status}), then died by ${res.signal} after ${(res.durationMs / 1000).toFixed(1)} s; the printed run is the outcome`;
}

/** What a failed `n8n execute` said: exit code, status, error, and the ends of its output. */
export function failureDetail(res: ExecuteResult): string {
	return `exit ${res.code ?? res.signal}, status ${res.run?.status}, error: ${res.errorMessage ?? '-'}\n${res.stdout.slice(-3000)}${res.stderr.slice(-1000)}`;
}

/** An IF node's two outputs in the last run of a stored execution (db.ts): [true, false]. */
export function branches(
	exec: { data?: ExecutionRun['data'] },
	node: string,
): [ExecutionItem[], ExecutionItem[]] {
	const runs = exec.data?.resultData?.runData?.[node];
	const main = runs?.[runs.length - 1]?.data?.main ?? [];
	return [main[0] ?? [], main[1] ?? []];
}

/**
 * Parse the execution JSON out of `n8n execute --rawOutput` stdout. Log lines come first; on success the
 * JSON is printed by this.log(), on failure n8n logs "Execution was NOT successful ... ====" followed by
 * the same JSON and then the error + stack. In both cases the JSON starts at a line that is exactly "{"
 * and ends at the next line that is exactly "}".
 */
export function parseExecuteOutput(stdout: string): ExecutionRun | undefined {
	const lines = stdout.split(/\r?\n/);
	const start = lines.indexOf('{');
	if (start < 0) return undefined;
	const end = lines.indexOf('}', start);
	if (end < 0) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionRun;
	} catch {
		return undefined;
	}
}

/** `n8n execute --id=<id> --rawOutput` (~2 s per run). Starts at the workflow's Manual Trigger. */
export async function executeWorkflow(sb: N8nSandbox, workflowId: string): Promise<ExecuteResult> {
	const r = await runCli(sb, ['execute', `--id=${workflowId}`, '--rawOutput']);
	const run = parseExecuteOutput(r.stdout);
	const outputs: Record<string, ExecutionItem[]> = {};
	const runData = run?.data?.resultData?.runData ?? {};
	for (const [nodeName, runs] of Object.entries(runData)) {
		const main = runs?.[runs.length - 1]?.data?.main;
		if (main) outputs[nodeName] = main[0] ?? [];
	}
	// n8n 2.0 prints the run before its final status is set ("running"); the status it stored is the outcome.
	// Newer n8n print the final status, and this changes nothing there.
	if (run && run.status === 'running' && r.code !== null) {
		const stored = (await storedExecutions(sb, workflowId)).at(-1);
		if (stored && stored.mode === 'cli' && !['new', 'running'].includes(stored.status))
			run.status = stored.status;
	}
	const error = run?.data?.resultData?.error;
	const diedAfterRun = run !== undefined && r.code === null && !r.timedOut;
	return {
		ok: (r.code === 0 || diedAfterRun) && run?.status === 'success',
		code: r.code,
		signal: r.signal,
		diedAfterRun,
		run,
		outputs,
		errorMessage: error?.message,
		stdout: r.stdout,
		stderr: r.stderr,
		durationMs: r.durationMs,
	};
}

/**
 * `n8n publish:workflow --id=<id>` for each id (2.x's "activate"): the workflow runs in production (schedules,
 * webhooks, polling triggers) from the next start of n8n on. One n8n boot each (5-8 s CPU), one after the other.
 */
export async function publishWorkflows(sb: N8nSandbox, ids: string[]): Promise<void> {
	for (const id of ids) await runCli(sb, ['publish:workflow', `--id=${id}`], { check: true });
}

/** `n8n list:workflow --onlyId [--active=true|false]`: the ids of the stored (published / unpublished) workflows. */
export async function listWorkflowIds(
	sb: N8nSandbox,
	opts: { active?: boolean } = {},
): Promise<string[]> {
	const args = [
		'list:workflow',
		'--onlyId',
		...(opts.active === undefined ? [] : [`--active=${opts.active}`]),
	];
	const r = await runCli(sb, args, { check: true });
	// one id per line; log lines (N8N_LOG_OUTPUT=console) have spaces
	return r.stdout
		.split(/\r?\n/)
		.map((l) => l.trim())
		.filter((l) => l && !/\s/.test(l));
}
