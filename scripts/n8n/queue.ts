/**
 * n8n in queue mode on loopback, as a team runs it on several machines: Redis, PostgreSQL, one main
 * (`n8n start`: editor, webhooks, schedules, polling triggers; it enqueues production executions) and workers
 * (`n8n worker`: run them). Every process has its own user folder (its own ~/.n8n/nodes), and they share the
 * database, Redis and N8N_ENCRYPTION_KEY. Each process gets PHPRANK_E2E_PROCESS=<its name> and env access in
 * expressions, so a workflow can show which process ran it (`{{ $env.PHPRANK_E2E_PROCESS }}`).
 */
import { randomBytes } from 'crypto';

import { withBootLock } from './bootLock';
import { installAsReadmeSays } from './checks';
import { startPostgres, type Postgres } from './postgres';
import { onInterrupt } from './proc';
import { startRedis, type Redis } from './redis';
import { getRuntime, type N8nRuntime } from './runtime';
import { createSandbox, migrateScratch, removeSandbox, type N8nSandbox } from './sandbox';
import { startServer, startWorker, type N8nServer, type N8nWorker } from './server';
import type { Suite } from './suite';

export interface QueueCluster {
	redis: Redis;
	postgres: Postgres;
	/** the main's sandbox (a CLI import goes here, before `start()`) */
	mainSandbox: N8nSandbox;
	/** every sandbox, main first */
	sandboxes: N8nSandbox[];
	/** set by start() */
	main?: N8nServer;
	workers: N8nWorker[];
	/** the main, then the workers side by side; resolves when all are ready */
	start(): Promise<void>;
	/** everything, sandboxes deleted (KEEP_SANDBOX=1 keeps them); safe to call twice */
	stop(): Promise<void>;
	/** names of the processes whose log shows they ran the execution ("Worker started execution <id> ") */
	ranBy(executionId: string | number): string[];
	/** "<name>: <log tail>" for every n8n process, for failure reports */
	logTails(chars?: number): string;
}

interface ClusterOptions {
	runtime: N8nRuntime;
	workers?: number;
	/** per worker: `n8n worker --concurrency` (default 10, n8n's own default) */
	concurrency?: number;
	/** extra env for every process */
	env?: Record<string, string>;
	/** extra env for the main only (e.g. N8N_LOG_LEVEL=debug) */
	mainEnv?: Record<string, string>;
}

/**
 * A suite's cluster on the cached n8n (install.sh), the package installed on every process as README says;
 * stopped at the end, every process's log tail printed if the suite breaks off. Not started: imports come first.
 */
export async function clusterWithPackage(
	suite: Suite,
	opts: Omit<ClusterOptions, 'runtime'>,
): Promise<QueueCluster> {
	const { timed } = suite;
	const runtime = await timed('install.sh (cached n8n + Node 24)', () =>
		getRuntime({ install: true }),
	);
	const cluster = await timed('Redis + PostgreSQL started', () =>
		createQueueCluster({ runtime, ...opts }),
	);
	suite.defer(() => cluster.stop());
	suite.diagnose(() => cluster.logTails(4000));
	const tgz = await suite.tarball();
	for (const [i, sb] of cluster.sandboxes.entries()) {
		const name = i === 0 ? 'main' : `worker-${i}`;
		await timed(`npm install on ${name}`, () => installAsReadmeSays(suite.report, sb, tgz, name));
	}
	return cluster;
}

/** The execution IDs a worker's log says it started ("Worker started execution <id> (job"), in order. */
export const startedBy = (worker: { logs(): string }): string[] =>
	[...worker.logs().matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]);

const dbEnv = (pg: Postgres): Record<string, string> => ({
	DB_TYPE: 'postgresdb',
	DB_POSTGRESDB_HOST: pg.host,
	DB_POSTGRESDB_PORT: String(pg.port),
	DB_POSTGRESDB_DATABASE: pg.database,
	DB_POSTGRESDB_USER: pg.user,
	DB_POSTGRESDB_PASSWORD: '',
});

export async function createQueueCluster(opts: ClusterOptions): Promise<QueueCluster> {
	const redis = await startRedis();
	let postgres: Postgres | undefined;
	const sandboxes: N8nSandbox[] = [];
	try {
		postgres = await startPostgres(opts.runtime, (pg) => migrateScratch(opts.runtime, dbEnv(pg)));
		const shared: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			...dbEnv(postgres),
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			N8N_USER_MANAGEMENT_JWT_SECRET: randomBytes(24).toString('hex'),
			N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
			...opts.env,
		};
		for (let i = 0; i <= (opts.workers ?? 2); i++) {
			const [name, own] = i ? [`worker-${i}`, {}] : ['main', opts.mainEnv];
			const env = { ...shared, ...own, PHPRANK_E2E_PROCESS: name };
			sandboxes.push(await createSandbox({ runtime: opts.runtime, env }));
		}
	} catch (e) {
		for (const sb of sandboxes) await removeSandbox(sb);
		await postgres?.stop();
		await redis.stop();
		throw e;
	}
	const pg = postgres;
	const [mainSandbox, ...workerSandboxes] = sandboxes;
	let stopped = false;
	const cluster: QueueCluster = {
		redis,
		postgres: pg,
		mainSandbox,
		sandboxes,
		workers: [],
		// one boot-lock hold (bootLock.ts) for the main and its workers: the workers still boot side by side
		start: async () =>
			await withBootLock('queue mode: main + workers', async () => {
				cluster.main = await startServer(mainSandbox);
				const started = await Promise.allSettled(
					workerSandboxes.map((sb, i) =>
						startWorker(sb, { name: `worker-${i + 1}`, concurrency: opts.concurrency }),
					),
				);
				for (const s of started) if (s.status === 'fulfilled') cluster.workers.push(s.value);
				const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
				if (failed) throw failed.reason;
			}),
		stop: async () => {
			if (stopped) return;
			stopped = true;
			unregister();
			for (const w of cluster.workers.splice(0).reverse()) await w.stop();
			await cluster.main?.stop();
			await pg.stop();
			await redis.stop();
			if (process.env.KEEP_SANDBOX)
				console.log(`sandboxes kept: ${sandboxes.map((s) => s.userFolder).join(' ')}`);
			else for (const sb of sandboxes) await removeSandbox(sb);
		},
		ranBy: (executionId) =>
			cluster.workers.filter((w) => startedBy(w).includes(String(executionId))).map((w) => w.name),
		logTails: (chars = 3000) =>
			[cluster.main && { name: 'main', logs: cluster.main.logs }, ...cluster.workers]
				.filter((p): p is { name: string; logs: () => string } => Boolean(p))
				.map((p) => `--- ${p.name} (log tail) ---\n${p.logs().slice(-chars)}`)
				.join('\n'),
	};
	const unregister = onInterrupt(cluster.stop);
	return cluster;
}
