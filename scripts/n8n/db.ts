/**
 * Executions as n8n stored them, read from its database (SQLite in a sandbox, PostgreSQL in queue mode):
 * `execution_entity` (status, mode) and `execution_data.data` (the run data, "flatted" JSON). Reading the
 * stored text itself is what a check "this secret is stored nowhere" needs: no API in between that could
 * redact or reshape it.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { pgQuery } from './postgres';
import { requireFromN8n } from './runtime';
import type { N8nSandbox } from './sandbox';

export interface ExecutionItem {
	json: Record<string, unknown>;
	[key: string]: unknown;
}

export interface ExecutionRun {
	status?: string; // "success" | "error" | ...
	mode?: string; // "cli"
	startedAt?: string;
	stoppedAt?: string;
	data?: {
		resultData?: {
			runData?: Record<
				string,
				Array<{
					data?: { main?: ExecutionItem[][] };
					error?: { message?: string; description?: string };
				}>
			>;
			error?: { message?: string; description?: string; [key: string]: unknown };
			lastNodeExecuted?: string;
		};
	};
	[key: string]: unknown;
}

export interface StoredExecution {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	startedAt?: Date;
	stoppedAt?: Date;
	/** execution_data.data as stored (flatted JSON text) */
	rawData: string;
	/** execution_data.data parsed: { resultData: { runData, error, ... }, executionData, ... } */
	data: NonNullable<ExecutionRun['data']> & Record<string, unknown>;
	/** runData[node][last run].data.main[0] per node */
	outputs: Record<string, ExecutionItem[]>;
}

/** How n8n's SQLite stores a date: UTC without a zone, which `new Date` would read as local time. */
const SQLITE_UTC = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/;

const SQL = `SELECT e.id, e."workflowId", e.status, e.mode, e."startedAt", e."stoppedAt", d.data FROM execution_entity e
	LEFT JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = $1 ORDER BY e.id`;

/** Every stored execution of a workflow, oldest first. */
export async function storedExecutions(
	sb: N8nSandbox,
	workflowId: string,
): Promise<StoredExecution[]> {
	const { DB_POSTGRESDB_HOST: host, DB_POSTGRESDB_PORT: port, DB_POSTGRESDB_USER: user } = sb.env;
	const pg = { host, port: Number(port), user, database: sb.env.DB_POSTGRESDB_DATABASE };
	const rows =
		sb.env.DB_TYPE === 'postgresdb'
			? await pgQuery<Row>(sb.runtime, pg, SQL, [workflowId])
			: sqlite<Row>(sb, SQL, [workflowId], 'reading executions from SQLite');
	const flatted = requireFromN8n<{ parse(text: string): unknown }>(sb.runtime, 'flatted');
	return rows.map((r) => {
		const rawData = r.data ?? '';
		// an execution that has only just started may have no run data yet (flatted parses it to undefined)
		const data = ((rawData ? flatted.parse(rawData) : undefined) ?? {}) as StoredExecution['data'];
		const outputs: Record<string, ExecutionItem[]> = {};
		for (const [node, runs] of Object.entries(data.resultData?.runData ?? {})) {
			const main = runs?.[runs.length - 1]?.data?.main;
			if (main) outputs[node] = main[0] ?? [];
		}
		const date = (v: unknown) =>
			v === null || v === undefined
				? undefined
				: new Date(SQLITE_UTC.test(String(v)) ? `${String(v).replace(' ', 'T')}Z` : (v as string));
		return {
			id: String(r.id),
			workflowId: r.workflowId,
			status: r.status,
			mode: r.mode,
			startedAt: date(r.startedAt),
			stoppedAt: date(r.stoppedAt),
			rawData,
			data,
			outputs,
		};
	});
}

/** Polls until the workflow has `count` finished executions (or the timeout); returns what is stored then. */
export async function waitForExecutions(
	sb: N8nSandbox,
	workflowId: string,
	count: number,
	timeoutMs = 60_000,
): Promise<StoredExecution[]> {
	const deadline = Date.now() + timeoutMs;
	let found: StoredExecution[] = [];
	while (Date.now() < deadline) {
		found = await storedExecutions(sb, workflowId);
		if (found.filter((e) => !['new', 'running', 'waiting'].includes(e.status)).length >= count)
			return found;
		await new Promise((r) => setTimeout(r, 500));
	}
	return found;
}

/** The execution `pick` finds among the workflow's, once it has ended (or the last state seen when the time is up). */
async function endedExecution(
	sb: N8nSandbox,
	workflowId: string,
	pick: (all: StoredExecution[]) => StoredExecution | undefined,
	timeoutMs: number,
): Promise<StoredExecution | undefined> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const exec = pick(await storedExecutions(sb, workflowId));
		if (exec && !['new', 'running', 'waiting', 'unknown'].includes(exec.status)) return exec;
		if (Date.now() > deadline) return exec;
		await new Promise((r) => setTimeout(r, 300));
	}
}

/** The workflow's `n`-th execution (from 1) of `mode`, once it has ended. */
export const nthExecution = (
	sb: N8nSandbox,
	workflowId: string,
	mode: string,
	n: number,
	timeoutMs = 60_000,
) => endedExecution(sb, workflowId, (all) => all.filter((e) => e.mode === mode)[n - 1], timeoutMs);

/** One stored execution by its id, once it has ended. */
export const waitForExecution = (
	sb: N8nSandbox,
	workflowId: string,
	id: string,
	timeoutMs = 60_000,
) => endedExecution(sb, workflowId, (all) => all.find((e) => e.id === String(id)), timeoutMs);

interface Row {
	id: number | string;
	workflowId: string;
	status: string;
	mode: string;
	startedAt: unknown;
	stoppedAt: unknown;
	data: string | null;
}

/**
 * The database's and its write-ahead log's change times and sizes, and whether the last change is over a second
 * old. Two equal settled stamps mean the same contents: a later write moves a change time past the second.
 */
function dbStamp(file: string): { stamp: string; settled: boolean } {
	let newest = 0;
	const parts = [file, `${file}-wal`].map((f) => {
		const st = fs.statSync(f, { throwIfNoEntry: false });
		newest = Math.max(newest, st?.mtimeMs ?? 0);
		return st ? `${st.mtimeMs}:${st.size}` : '-';
	});
	return { stamp: parts.join('|'), settled: Date.now() - newest > 1000 };
}

/**
 * A read's rows by database file and statement, with the stamp they were read at. A suite polls while it waits
 * (a schedule, a run on a worker): an unchanged database is answered from here instead of a Node process
 * started for it (~0.15 CPU s each, two or three a second while waiting).
 */
const reads = new Map<string, { stamp: string; rows: unknown[] }>();

/** One statement on the sandbox's SQLite database (n8n's sqlite3 is built for Node 24, so it runs there). */
function sqlite<T>(
	sb: N8nSandbox,
	sql: string,
	params: string[],
	what: string,
	write = false,
): T[] {
	const script = `
		const [n8nDir, file, sql, mode, ...params] = process.argv.slice(1);
		const sqlite3 = require(require.resolve('sqlite3', { paths: [n8nDir] }));
		const db = new sqlite3.Database(file, mode === 'write' ? sqlite3.OPEN_READWRITE : sqlite3.OPEN_READONLY);
		db.all(sql, params, (err, rows) => {
			if (err) { console.error(err.message); process.exit(1); }
			process.stdout.write(JSON.stringify(rows ?? []));
			db.close();
		});`;
	const n8nDir = path.join(sb.runtime.cacheDir, 'node_modules', 'n8n');
	const file = path.join(sb.n8nDir, 'database.sqlite');
	const key = JSON.stringify([file, sql, params]);
	const { stamp, settled } = dbStamp(file);
	const known = reads.get(key);
	if (!write && known?.stamp === stamp) return known.rows as T[];
	const args = ['-e', script, n8nDir, file, sql, write ? 'write' : 'read', ...params];
	const r = spawnSync(sb.runtime.nodeBin, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
	if (r.status !== 0) throw new Error(`${what} failed:\n${r.stderr}`);
	const rows = JSON.parse(r.stdout || '[]') as T[];
	if (!write && settled) reads.set(key, { stamp, rows });
	return rows;
}

/**
 * The workflow_history row (the "version" `publish:workflow` publishes) of each imported workflow that has none.
 * n8n 2.0.0 to 2.4.0 `import:workflow` writes none (from 2.4.8 on, and in 2.41, its import service inserts one
 * per workflow: versionId, workflowId, nodes, connections, authors "import"), so `publish:workflow` there fails
 * with `Version "<versionId>" not found for workflow "<id>"`. This adds the row later versions write, from the
 * imported workflow itself; returns the ids that needed it (none on a current n8n). SQLite only: queue mode
 * (PostgreSQL) runs on the newest n8n.
 */
export function addMissingWorkflowVersions(sb: N8nSandbox, workflowIds: string[]): string[] {
	if (sb.env.DB_TYPE === 'postgresdb' || workflowIds.length === 0) return [];
	const unversioned = sqlite<{ id: string }>(
		sb,
		`SELECT w.id FROM workflow_entity w WHERE NOT EXISTS
			(SELECT 1 FROM workflow_history h WHERE h."versionId" = w."versionId" AND h."workflowId" = w.id)`,
		[],
		'reading workflow_history',
	).map((r) => r.id);
	const missing = workflowIds.filter((id) => unversioned.includes(id));
	for (const id of missing) {
		sqlite(
			sb,
			`INSERT INTO workflow_history ("versionId", "workflowId", authors, nodes, connections)
				SELECT "versionId", id, 'import', nodes, connections FROM workflow_entity WHERE id = $1`,
			[id],
			'adding a workflow_history row',
			true,
		);
	}
	return missing;
}

/**
 * The version of a workflow that n8n 2.41's publication outbox has published (`workflow_published_version`),
 * which production webhooks run; undefined before. A publish through REST sets `activeVersionId` at once, the
 * outbox publishes it a moment later (e2e/tableHistory.e2e.ts waits for it). SQLite only.
 */
export function publishedVersionId(sb: N8nSandbox, workflowId: string): string | undefined {
	const rows = sqlite<{ publishedVersionId: string }>(
		sb,
		'SELECT "publishedVersionId" FROM workflow_published_version WHERE "workflowId" = ?',
		[workflowId],
		'reading the published version from SQLite',
	);
	return rows[0]?.publishedVersionId;
}
