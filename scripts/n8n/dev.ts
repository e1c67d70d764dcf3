/**
 * `npm run dev`: a real n8n (2.41.1, Node 24) with this package loaded, next to the bundled phpRank test server.
 *
 *   - n8n is installed on first use into the cache folder (scripts/n8n/install.sh, ~3.5 min once), then reused.
 *   - The n8n user folder is persistent: <cache>/dev-user (owner account, credentials, workflows, executions survive).
 *   - The package is built, packed and installed like users install it (~/.n8n/nodes/node_modules/n8n-nodes-phprank).
 *   - First start: creates the owner account, imports a phpRank credential for the test server and examples/*.json.
 *   - Watches nodes/, credentials/ and package.json: on a change it rebuilds, re-installs and restarts n8n
 *     (a failed build keeps the running version).
 *
 * Options: --port <n8n port, default 5678>  --api-port <test server port, default 8787>  --quiet (no n8n log)
 *          --reset (delete the dev user folder first: new owner, credential and examples)
 * Env: N8N_CACHE_DIR (where n8n and the dev user folder live).
 */
import { spawn } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as readline from 'readline';

import { TEST_API_KEY, type PhpRankServer } from '../../test/server';
import { startSampleServer } from '../../test/server/sample';
import {
	createSandbox,
	DEFAULT_OWNER,
	getRuntime,
	importCredentials,
	importWorkflows,
	installPackage,
	packPackage,
	setupOwner,
	startServer,
	type N8nSandbox,
	type N8nServer,
} from './n8n';
import { createApiKey } from './apiKey';
import {
	CRED_NAME,
	loadExamples,
	REPO,
	run,
	sitemapN8nApiCredential,
	testServerCredential,
} from './checks';
import { login } from './rest';

const WATCHED = ['nodes', 'credentials', 'package.json'];

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}
const N8N_PORT = Number(arg('--port') ?? process.env.N8N_PORT ?? 5678);
const API_PORT = Number(arg('--api-port') ?? process.env.PHPRANK_PORT ?? 8787);
const QUIET = process.argv.includes('--quiet');

const log = (msg: string): void => console.log(`[dev] ${msg}`);

interface DevState {
	ownerCreated?: boolean;
	/** The n8n API credential of History Store → Data Table (the sitemap example) was imported. */
	n8nApiCredential?: boolean;
	importedWorkflows?: string[];
	encryptionKey: string;
	jwtSecret: string;
}

function readState(file: string): DevState {
	if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as DevState;
	return {
		encryptionKey: randomBytes(24).toString('hex'),
		jwtSecret: randomBytes(24).toString('hex'),
	};
}

function writeState(file: string, state: DevState): void {
	fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

async function portFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/** npm run build -> npm pack -> untar into the sandbox's nodes folder. False (and the output) when the build fails. */
async function buildAndInstall(sb: N8nSandbox): Promise<boolean> {
	const t = Date.now();
	fs.rmSync(path.join(REPO, 'dist'), { recursive: true, force: true });
	const build = run('npm', ['run', 'build'], REPO);
	if (build.code !== 0) {
		const last = build.output.trim().split('\n').slice(-40).join('\n');
		log(`build FAILED (n8n keeps running the previous version):\n${last}`);
		return false;
	}
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'phprank-dev-pack-'));
	try {
		const tgz = await packPackage(REPO, packDir);
		const { name, version } = await installPackage(sb, tgz);
		log(`built and installed ${name}@${version} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
	return true;
}

/** Signature of the watched files (path, mtime, size); polling is simple and works on every file system. */
function snapshot(): string {
	const files = WATCHED.flatMap((w) =>
		fs.statSync(path.join(REPO, w)).isDirectory()
			? (fs.readdirSync(path.join(REPO, w), { recursive: true }) as string[]).map((f) =>
					path.join(w, f),
				)
			: [w],
	);
	const stats = files
		.filter((f) => !/(^|\/)(node_modules|\.)/.test(f))
		.sort()
		.map((f) => [f, fs.statSync(path.join(REPO, f), { throwIfNoEntry: false })] as const);
	return stats.map(([f, st]) => (st?.isFile() ? `${f}:${st.mtimeMs}:${st.size}` : '')).join('\n');
}

/** n8n's log as it grows, each line printed as [n8n] (`tail -F`, ended with this process); stops it. */
function tailLogs(server: N8nServer): () => void {
	const file = path.join(server.sandbox.userFolder, `server-${server.port}.log`);
	const args = ['-n', '+1', '-F', `--pid=${process.pid}`, file];
	const tail = spawn('tail', args, { stdio: ['ignore', 'pipe', 'ignore'] });
	readline
		.createInterface({ input: tail.stdout })
		.on('line', (line) => line.trim() && console.log(`[n8n] ${line}`));
	return () => tail.kill();
}

async function main(): Promise<void> {
	const runtime = getRuntime({ install: true });
	const userFolder = path.join(runtime.cacheDir, 'dev-user');
	if (process.argv.includes('--reset')) {
		log(`--reset: deleting ${userFolder}`);
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
	fs.mkdirSync(userFolder, { recursive: true });
	const stateFile = path.join(userFolder, 'dev-state.json');
	const state = readState(stateFile);
	writeState(stateFile, state);

	if (!(await portFree(N8N_PORT)))
		throw new Error(`port ${N8N_PORT} is in use (another n8n?). Use --port <n>.`);
	if (!(await portFree(API_PORT)))
		throw new Error(`port ${API_PORT} is in use. Use --api-port <n>.`);

	const api: PhpRankServer = await startSampleServer({ port: API_PORT });
	log(`phpRank test server (sample data) on ${api.url}`);

	// The same encryption key on every start: n8n stores it in .n8n/config and refuses another one.
	const sb = await createSandbox({
		runtime,
		userFolder,
		env: {
			N8N_ENCRYPTION_KEY: state.encryptionKey,
			N8N_USER_MANAGEMENT_JWT_SECRET: state.jwtSecret,
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		},
	});
	if (!(await buildAndInstall(sb)))
		throw new Error('the first build failed; fix it and run npm run dev again');

	await importCredentialAndExamples(sb, api, stateFile, state);

	const env = {
		N8N_EDITOR_BASE_URL: `http://localhost:${N8N_PORT}`,
		N8N_WEBHOOK_URL: `http://localhost:${N8N_PORT}/`,
		// History Store → Data Table reads and writes through n8n's public API.
		N8N_PUBLIC_API_DISABLED: 'false',
	};
	let server = await startServer(sb, { port: N8N_PORT, readyTimeoutMs: 180_000, env });
	let stopTail = QUIET ? () => {} : tailLogs(server);
	await setUpOnce(server, sb, stateFile, state);

	printBanner(api, userFolder);

	let last = snapshot();
	let busy = false;
	let again = false;
	let stopping = false;
	const reload = async (): Promise<void> => {
		if (busy) {
			again = true;
			return;
		}
		busy = true;
		try {
			do {
				again = false;
				log('change detected: rebuilding');
				if (!(await buildAndInstall(sb))) continue;
				const t = Date.now();
				stopTail();
				await server.stop();
				if (stopping) return;
				server = await startServer(sb, { port: N8N_PORT, readyTimeoutMs: 180_000, env });
				stopTail = QUIET ? () => {} : tailLogs(server);
				log(
					`n8n restarted in ${((Date.now() - t) / 1000).toFixed(1)} s: reload the browser tab (http://localhost:${N8N_PORT})`,
				);
			} while (again && !stopping);
		} catch (e) {
			log(`reload failed: ${(e as Error).message}`);
		} finally {
			busy = false;
		}
	};
	let debounce: NodeJS.Timeout | undefined;
	const watcher = setInterval(() => {
		const now = snapshot();
		if (now === last) return;
		last = now;
		if (debounce) clearTimeout(debounce);
		debounce = setTimeout(() => void reload(), 400);
	}, 1000);

	const shutdown = async (signal: string): Promise<void> => {
		if (stopping) return;
		stopping = true;
		log(`${signal}: stopping n8n and the test server`);
		clearInterval(watcher);
		if (debounce) clearTimeout(debounce);
		stopTail();
		await server.stop();
		await api.stop();
		process.exit(0);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.once(signal, () => void shutdown(signal));
	// `kill <npm pid>` ends npm without passing the signal on (npm -> sh -> node): do not leave n8n running
	// without us. Watch the parent and the grandparent; they change (re-parented to init) when npm is gone.
	const ancestors = (): string => {
		const ppid = process.ppid;
		try {
			const stat = fs.readFileSync(`/proc/${ppid}/stat`, 'utf8');
			return `${ppid}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]}`;
		} catch {
			return `${ppid}`;
		}
	};
	const family = ancestors();
	setInterval(() => {
		if (ancestors() !== family) void shutdown('npm was stopped');
	}, 1000).unref();
}

/** The test server's credential, and the examples not imported yet (imports run while n8n is stopped). */
async function importCredentialAndExamples(
	sb: N8nSandbox,
	api: PhpRankServer,
	stateFile: string,
	state: DevState,
): Promise<void> {
	// Imports run while n8n is stopped (the CLI and the server share the SQLite file).
	await importCredentials(sb, [testServerCredential(api)]);
	const imported = new Set(state.importedWorkflows ?? []);
	const fresh = [...loadExamples().values()].filter((wf) => !imported.has(wf.id));
	if (fresh.length) {
		await importWorkflows(sb, fresh);
		for (const wf of fresh) imported.add(wf.id);
		state.importedWorkflows = [...imported];
		writeState(stateFile, state);
		log(`imported example workflows: ${fresh.map((w) => w.name).join(', ')}`);
	}
}

/** On the first start only: the owner, and the n8n API credential with a key of this n8n's owner. */
async function setUpOnce(
	server: N8nServer,
	sb: N8nSandbox,
	stateFile: string,
	state: DevState,
): Promise<void> {
	if (!state.ownerCreated) {
		try {
			await setupOwner(server, DEFAULT_OWNER);
		} catch (e) {
			if (!/already setup/i.test(String(e))) throw e;
		}
		state.ownerCreated = true;
		writeState(stateFile, state);
	}
	if (!state.n8nApiCredential) {
		// The credential the sitemap example names, with a key of this n8n's owner.
		const apiKey = await createApiKey(await login(server), { label: 'npm run dev' });
		await importCredentials(sb, [sitemapN8nApiCredential(`http://localhost:${N8N_PORT}`, apiKey)]);
		state.n8nApiCredential = true;
		writeState(stateFile, state);
	}
}

function printBanner(api: PhpRankServer, userFolder: string): void {
	const banner = [
		'',
		'  n8n with n8n-nodes-phprank is running',
		`    open            http://localhost:${N8N_PORT}`,
		`    log in as       ${DEFAULT_OWNER.email}  /  ${DEFAULT_OWNER.password}`,
		'',
		`  phpRank test server (30 sample reports over 6 sites)`,
		`    Base URL        ${api.url}`,
		`    API Key         ${TEST_API_KEY}`,
		`    a credential "${CRED_NAME}" with these values and the example workflows are already imported,`,
		'    and an n8n API credential of this n8n (History Store → Data Table, the sitemap example)',
		'',
		`  n8n user folder   ${userFolder}   (npm run dev -- --reset starts over)`,
		'  watching nodes/, credentials/, package.json: a change rebuilds, re-installs and restarts n8n',
		'  Ctrl+C stops everything',
		'',
	];
	console.log(banner.join('\n'));
}

main().catch((e: unknown) => {
	console.error(`[dev] ${(e as Error).message ?? e}`);
	process.exit(1);
});
