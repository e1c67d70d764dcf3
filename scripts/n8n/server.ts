/**
 * Long-running n8n processes: `n8n start` (the main: editor, REST, webhooks, schedules and polling triggers)
 * and `n8n worker` (queue mode: runs the executions the main enqueues). Each is ready when its
 * /healthz/readiness answers 200 (DB connected and migrated; for a worker, also Redis).
 */
import * as path from 'path';

import { withBootLock } from './bootLock';
import { getFreePort, httpReady, startDaemon, waitReady, type Daemon } from './proc';
import type { N8nSandbox } from './sandbox';

export interface N8nServer {
	baseUrl: string;
	port: number;
	pid: number;
	sandbox: N8nSandbox;
	/** everything n8n printed so far (stdout + stderr) */
	logs(): string;
	stop(): Promise<void>;
}

export interface N8nWorker {
	name: string;
	pid: number;
	sandbox: N8nSandbox;
	logs(): string;
	stop(): Promise<void>;
}

/**
 * `n8n start` on 127.0.0.1:<port> (free port by default) and wait until GET /healthz/readiness is 200
 * (DB connected + migrated + server fully ready) and the log says "Editor is now accessible via". Cold start of a fresh sandbox takes ~10 s.
 * Killed when the calling script exits. Holds the boot lock (bootLock.ts) until ready.
 */
export async function startServer(
	sb: N8nSandbox,
	opts: { port?: number; readyTimeoutMs?: number; env?: Record<string, string> } = {},
): Promise<N8nServer> {
	return await withBootLock('n8n start', async () => await bootServer(sb, opts));
}

async function bootServer(
	sb: N8nSandbox,
	opts: { port?: number; readyTimeoutMs?: number; env?: Record<string, string> },
): Promise<N8nServer> {
	const port = opts.port ?? (await getFreePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const daemon = startDaemon({
		name: 'n8n start',
		command: sb.runtime.nodeBin,
		args: [sb.runtime.n8nBin, 'start'],
		cwd: sb.userFolder,
		logFile: path.join(sb.userFolder, `server-${port}.log`),
		env: {
			...sb.env,
			N8N_PORT: String(port),
			N8N_EDITOR_BASE_URL: baseUrl,
			N8N_WEBHOOK_URL: `${baseUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(await getFreePort()),
			...opts.env,
		},
	});
	const timeoutMs = opts.readyTimeoutMs ?? 90_000;
	await waitReady(
		daemon,
		() => httpReady(`${baseUrl}/healthz/readiness`),
		timeoutMs,
		`readiness on ${baseUrl}`,
	);
	// n8n 2.0 answers readiness as soon as the database is migrated, before its REST API and webhooks are set
	// up (POST /rest/owner/setup then gets 404); `n8n start` prints this line once they are, in 2.0 and in 2.41.
	await waitReady(
		daemon,
		async () => await Promise.resolve(daemon.logs().includes('Editor is now accessible via')),
		timeoutMs,
		'the editor line in the log',
	);
	return { baseUrl, port, pid: daemon.pid, sandbox: sb, logs: daemon.logs, stop: daemon.stop };
}

/**
 * `n8n worker --concurrency=<n>` with its health server on a free loopback port (QUEUE_HEALTH_CHECK_*) and its
 * own task-runner broker port; ready when the health server says so (Redis and DB connected).
 * The sandbox's env must carry the queue-mode settings (see queue.ts). Holds the boot lock until ready.
 */
export async function startWorker(sb: N8nSandbox, opts: WorkerOptions): Promise<N8nWorker> {
	return await withBootLock(`n8n worker ${opts.name}`, async () => await bootWorker(sb, opts));
}

interface WorkerOptions {
	name: string;
	concurrency?: number;
}

async function bootWorker(sb: N8nSandbox, opts: WorkerOptions): Promise<N8nWorker> {
	const healthPort = await getFreePort();
	const healthUrl = `http://127.0.0.1:${healthPort}`;
	const daemon: Daemon = startDaemon({
		name: opts.name,
		command: sb.runtime.nodeBin,
		args: [sb.runtime.n8nBin, 'worker', `--concurrency=${opts.concurrency ?? 10}`],
		cwd: sb.userFolder,
		logFile: path.join(sb.userFolder, `${opts.name}.log`),
		env: {
			...sb.env,
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			N8N_RUNNERS_BROKER_PORT: String(await getFreePort()),
		},
	});
	await waitReady(
		daemon,
		() => httpReady(`${healthUrl}/healthz/readiness`),
		90_000,
		`readiness on ${healthUrl}`,
	);
	return {
		name: opts.name,
		pid: daemon.pid,
		sandbox: sb,
		logs: daemon.logs,
		stop: daemon.stop,
	};
}
