// `n8n-node lint` (@n8n/node-cli, the CLI n8n asks verified community-node authors to use) on what the
// package ships, with n8n's own lint config exactly as `n8n-node new` scaffolds it. The repository's
// eslint.config.mjs holds more (tests, scripts, the layer rule), and n8n-node lint's strict mode
// (`"strict": true` in package.json) accepts only the default config; so the shipped sources
// (nodes/, credentials/), package.json and a tsconfig of those are staged in a folder of their own
// with that default config, and linted there. Fails on any error or warning.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'node_modules/@n8n/node-cli');
const stage = mkdtempSync(join(tmpdir(), 'n8n-node-lint-'));
try {
	for (const path of ['nodes', 'credentials', 'package.json'])
		cpSync(join(root, path), join(stage, path), { recursive: true });
	const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
	tsconfig.include = ['credentials/**/*.ts', 'nodes/**/*.ts'];
	tsconfig.compilerOptions.types = [];
	writeFileSync(join(stage, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
	cpSync(
		join(cli, 'dist/template/templates/shared/default/eslint.config.mjs'),
		join(stage, 'eslint.config.mjs'),
	);
	symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
	const run = spawnSync(join(root, 'node_modules/.bin/n8n-node'), ['lint'], {
		cwd: stage,
		encoding: 'utf8',
		env: { ...process.env, CI: 'true' },
	});
	const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
	process.stdout.write(output);
	const warnings = /\b(\d+) warnings?\b/.exec(output.replace(/\u001b\[[0-9;]*m/g, ''));
	if (run.status !== 0) {
		console.error(`n8n-node lint failed (exit ${run.status ?? run.signal})`);
		process.exit(1);
	}
	if (warnings && Number(warnings[1]) > 0) {
		console.error(`n8n-node lint: ${warnings[1]} warning(s); the package must lint clean`);
		process.exit(1);
	}
	console.log(
		"n8n-node lint: no errors, no warnings (n8n's default config, strict mode, on nodes/ and credentials/)",
	);
} finally {
	rmSync(stage, { recursive: true, force: true });
}
