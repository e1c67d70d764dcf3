/**
 * A sandbox is one n8n installation's home: an isolated N8N_USER_FOLDER (own data, own ~/.n8n/nodes, own
 * encryption key unless given), configured to stay quiet and offline (no telemetry, version checks,
 * templates, banners, license renewals). In queue mode each process (main, every worker) has its own, as
 * separate machines would.
 */
import { spawn } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { getFreePort, sleep } from './proc';
import { getRuntime, type N8nRuntime } from './runtime';

export { getFreePort } from './proc';

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

/**
 * The modules this n8n knows (`MODULE_NAMES` of @n8n/backend-common), or undefined when the list cannot be read.
 * N8N_DISABLED_MODULES may name only known modules: n8n 2.0 has no "mcp-registry" and stops every command
 * with `Error: Unknown module "mcp-registry"`.
 */
export function knownModules(runtime: N8nRuntime): string[] | undefined {
	const config = 'node_modules/@n8n/backend-common/dist/modules/modules.config.js';
	const file = path.join(runtime.cacheDir, config);
	try {
		const list = /MODULE_NAMES = \[([^\]]*)\]/.exec(fs.readFileSync(file, 'utf8'))?.[1];
		return list ? [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]) : undefined;
	} catch {
		return undefined;
	}
}

/** QUIET_OFFLINE_ENV for this n8n: without N8N_DISABLED_MODULES entries it does not know. */
function quietOfflineEnv(runtime: N8nRuntime): Record<string, string> {
	const env = { ...QUIET_OFFLINE_ENV };
	const known = knownModules(runtime);
	if (known) {
		const disabled = env.N8N_DISABLED_MODULES.split(',').filter((m) => known.includes(m));
		if (disabled.length) env.N8N_DISABLED_MODULES = disabled.join(',');
		else delete env.N8N_DISABLED_MODULES;
	}
	return env;
}

/** Variables inherited from the caller that could redirect n8n away from the sandbox. */
const STRIPPED_PREFIXES = [
	'N8N_',
	'DB_',
	'EXECUTIONS_',
	'QUEUE_',
	'WEBHOOK_URL',
	'NODE_OPTIONS',
	'NODE_PATH',
];

let editor = true;
/**
 * This process's n8n serve no editor (N8N_DISABLE_UI): for a suite that only uses REST, webhooks and schedules.
 * Each `n8n start` otherwise rewrites the editor's 40 MB of assets into the user folder (~6 s CPU on 2 cores).
 */
export function withoutEditor(): void {
	editor = false;
}

/**
 * Under e2e/all.ts (E2E_DB_TEMPLATES, a folder of its run) a database starts from a copy of one that n8n has
 * migrated, the folder `name` that the first caller makes (`make(folder)`) and the others wait for; undefined
 * elsewhere or when making it failed (then each migrates its own). A migrated database holds no secret and
 * nothing tied to the encryption key: roles, settings and the owner-to-be without a password.
 */
export async function dbTemplate(
	name: string,
	make: (folder: string) => Promise<void>,
): Promise<string | undefined> {
	const dir = process.env.E2E_DB_TEMPLATES;
	if (!dir) return undefined;
	const template = path.join(dir, name);
	if (fs.mkdirSync(`${template}.lock`, { recursive: true }) !== undefined)
		await make(template).catch(() => fs.mkdirSync(template, { recursive: true }));
	else for (let i = 0; i < 1200 && !fs.existsSync(template); i++) await sleep(250);
	return fs.existsSync(template) && fs.readdirSync(template).length ? template : undefined;
}

/** `n8n list:workflow` in a scratch sandbox (its database: `env`'s, else its SQLite) migrates it; then `keep(sb)`. */
export async function migrateScratch(
	runtime: N8nRuntime,
	env?: Record<string, string>,
	keep?: (sb: N8nSandbox) => void,
): Promise<void> {
	const sb = await createSandbox({ runtime, env, seed: false });
	const child = spawn(runtime.nodeBin, [runtime.n8nBin, 'list:workflow'], {
		cwd: sb.userFolder,
		env: { ...sb.env, N8N_RUNNERS_BROKER_PORT: String(await getFreePort()) },
		stdio: 'ignore',
	});
	const code = await new Promise((resolve) => child.on('exit', resolve).on('error', resolve));
	if (code === 0) keep?.(sb);
	await removeSandbox(sb);
	if (code !== 0) throw new Error(`n8n list:workflow exited with ${String(code)}`);
}

/** A SQLite sandbox's database from a template (~200 migrations: a fresh folder's first command ~3.5 s CPU). */
async function seedDatabase(runtime: N8nRuntime, n8nDir: string): Promise<void> {
	const template = await dbTemplate(`sqlite-${runtime.n8nVersion}`, (folder) =>
		migrateScratch(runtime, {}, (sb) => {
			for (const file of ['config', 'nodes', 'database.sqlite-shm']) // not the key
				fs.rmSync(path.join(sb.n8nDir, file), { recursive: true, force: true });
			fs.renameSync(sb.n8nDir, folder);
		}),
	);
	for (const file of template ? fs.readdirSync(template) : [])
		fs.copyFileSync(path.join(template as string, file), path.join(n8nDir, file));
}

export async function createSandbox(
	opts: {
		runtime?: N8nRuntime;
		userFolder?: string;
		env?: Record<string, string>;
		/** from a migrated database when E2E_DB_TEMPLATES is set (SQLite only); default true */
		seed?: boolean;
	} = {},
): Promise<N8nSandbox> {
	const runtime = opts.runtime ?? getRuntime();
	const userFolder =
		opts.userFolder ?? (await fs.promises.mkdtemp(path.join(os.tmpdir(), 'n8n-phprank-')));
	const n8nDir = path.join(userFolder, '.n8n');
	const nodeModulesDir = path.join(n8nDir, 'nodes', 'node_modules');
	await fs.promises.mkdir(nodeModulesDir, { recursive: true });
	const tmpDir = path.join(userFolder, 'tmp');
	await fs.promises.mkdir(tmpDir, { recursive: true });
	const encryptionKey = opts.env?.N8N_ENCRYPTION_KEY ?? randomBytes(24).toString('hex');

	const base: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (!STRIPPED_PREFIXES.some((p) => k.startsWith(p))) base[k] = v;
	}
	const env: NodeJS.ProcessEnv = {
		...base,
		...quietOfflineEnv(runtime),
		PATH: `${path.dirname(runtime.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		HOME: process.env.HOME ?? userFolder,
		N8N_USER_FOLDER: userFolder,
		TMPDIR: tmpDir, // n8n creates e.g. $TMPDIR/n8nDataTableUploads at start; keep it inside the sandbox
		N8N_USER_MANAGEMENT_JWT_SECRET: randomBytes(24).toString('hex'),
		...(editor ? {} : { N8N_DISABLE_UI: 'true' }),
		...opts.env,
		N8N_ENCRYPTION_KEY: encryptionKey,
	};
	if (opts.seed !== false && env.DB_TYPE === 'sqlite') await seedDatabase(runtime, n8nDir);
	return { runtime, userFolder, n8nDir, nodeModulesDir, encryptionKey, env };
}

export async function removeSandbox(sb: N8nSandbox): Promise<void> {
	await fs.promises.rm(sb.userFolder, { recursive: true, force: true });
}
