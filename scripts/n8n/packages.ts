/**
 * The package as users install it: `npm pack`, then README's "Manually with npm" route in a sandbox's
 * ~/.n8n/nodes, with the Node that runs n8n; and which n8n-workflow the installed package loads.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { withoutNpmRunEnv } from './proc';
import type { N8nSandbox } from './sandbox';

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
 * Installs a tarball as README's "Manually with npm" says: `cd ~/.n8n/nodes && npm install <tarball>`
 * (~ being the sandbox's user folder), with the Node 24 that runs n8n first on PATH, as on a machine that
 * runs n8n. npm does what it does for users: dependencies, and peers unless they are optional.
 * n8n scans `nodes/node_modules/n8n-nodes-*` and `@*\/n8n-nodes-*`; no DB row is needed.
 */
export async function installPackage(
	sb: N8nSandbox,
	tarball: string,
): Promise<{ name: string; version: string; dir: string }> {
	const nodesDir = path.dirname(sb.nodeModulesDir);
	await fs.promises.mkdir(nodesDir, { recursive: true });
	const r = spawnSync(
		'npm',
		['install', tarball, '--no-audit', '--no-fund', '--no-update-notifier'],
		{
			cwd: nodesDir,
			encoding: 'utf8',
			env: { ...withoutNpmRunEnv(sb.env), CI: 'true', npm_config_loglevel: 'error' },
			timeout: 600_000,
		},
	);
	if (r.status !== 0)
		throw new Error(
			`npm install ${path.basename(tarball)} in ${nodesDir} failed (exit ${r.status}):\n${r.stderr.slice(-4000)}`,
		);
	const deps =
		(
			JSON.parse(await fs.promises.readFile(path.join(nodesDir, 'package.json'), 'utf8')) as {
				dependencies?: Record<string, string>;
			}
		).dependencies ?? {};
	const name = Object.keys(deps).find((n) => deps[n].endsWith(path.basename(tarball)));
	if (!name)
		throw new Error(
			`npm install recorded no dependency on ${path.basename(tarball)} in ${nodesDir}/package.json`,
		);
	if (!/^(@[^/]+\/)?n8n-nodes-/.test(name)) {
		throw new Error(`n8n only scans node_modules/n8n-nodes-* and @*/n8n-nodes-*; got "${name}"`);
	}
	const dir = path.join(sb.nodeModulesDir, ...name.split('/'));
	const { version } = JSON.parse(
		await fs.promises.readFile(path.join(dir, 'package.json'), 'utf8'),
	) as { version: string };
	return { name, version, dir };
}

export interface WorkflowResolution {
	/** the n8n-workflow file the package's node file loads, resolved as inside n8n */
	fromPackage: string;
	/** the n8n-workflow file n8n-core (RoutingNode, the instanceof checks) loads */
	fromN8nCore: string;
	/** every n8n-workflow copy installed under ~/.n8n/nodes (none when n8n's own is used) */
	copiesInNodesFolder: string[];
}

/**
 * Which n8n-workflow an installed package loads in n8n. n8n's loader puts its own module paths on NODE_PATH
 * before loading community packages (`process.env.NODE_PATH = [module.paths…, NODE_PATH]` then
 * `Module._initPaths()` in n8n/dist/load-nodes-and-credentials.js), so a package without a copy of its own
 * falls through to n8n's. Node 24 resolves `require('n8n-workflow')` from `nodeFile` with the same NODE_PATH.
 */
export function resolveWorkflowPackage(sb: N8nSandbox, nodeFile: string): WorkflowResolution {
	const n8nDist = path.join(sb.runtime.cacheDir, 'node_modules', 'n8n', 'dist');
	const script = `
		const Module = require('module');
		const fs = require('fs');
		const [n8nDist, nodeFile] = process.argv.slice(1);
		process.env.NODE_PATH = [Module._nodeModulePaths(n8nDist).join(':'), process.env.NODE_PATH].filter(Boolean).join(':');
		Module._initPaths();
		const real = (p) => fs.realpathSync(p);
		const core = require.resolve('n8n-core', { paths: [n8nDist] });
		console.log(JSON.stringify({
			fromPackage: real(Module.createRequire(nodeFile).resolve('n8n-workflow')),
			fromN8nCore: real(Module.createRequire(core).resolve('n8n-workflow')),
		}));`;
	const r = spawnSync(sb.runtime.nodeBin, ['-e', script, n8nDist, nodeFile], {
		encoding: 'utf8',
		env: { ...sb.env, NODE_PATH: '' },
	});
	if (r.status !== 0)
		throw new Error(`resolving n8n-workflow from ${nodeFile} failed:\n${r.stderr}`);
	const found = JSON.parse(r.stdout) as Omit<WorkflowResolution, 'copiesInNodesFolder'>;
	return {
		...found,
		copiesInNodesFolder: findPackageCopies(path.dirname(sb.nodeModulesDir), 'n8n-workflow'),
	};
}

/** Every `name` package below `root`: a folder of that name with a package.json, right under a node_modules. */
function findPackageCopies(root: string, name: string): string[] {
	const manifest = new RegExp(`(^|/)node_modules/${name}/package\\.json$`);
	return (fs.readdirSync(root, { recursive: true }) as string[])
		.filter((file) => manifest.test(file))
		.map((file) => path.join(root, path.dirname(file)));
}
