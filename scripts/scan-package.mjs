// n8n's own scanner, offline, on what would be published. `npx @n8n/scan-community-package <name>`
// checks a published version: its provenance, then its lint (analyzePackage) on the source files the
// provenance names and on the downloaded tarball. This runs the same analyzePackage legs on the source
// tree and on the tarball `npm pack` makes now; provenance exists only after publishing.
// Needs `npm run build` first. `--tarball <file>`: scan that tarball instead of packing one (.ci/run packs
// once for this scan and every e2e suite). Exit code 1 on any finding.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'phprank-scan-'));
// The scanner makes a temporary folder when it loads and leaves it behind: put it inside ours.
process.env.TMPDIR = work;
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	'@n8n/scan-community-package/scanner/scanner.mjs'
);

/** `npm pack` of the repository into `dir`; the tarball's path. */
function packInto(dir) {
	const packed = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
		{ cwd: root, encoding: 'utf8' },
	);
	return path.join(dir, JSON.parse(packed)[0].filename);
}

try {
	if (!fs.existsSync(path.join(root, 'dist')))
		throw new Error('dist/ is missing: run npm run build first');
	const given = process.argv.indexOf('--tarball');
	const tarball = given > 0 ? path.resolve(process.argv[given + 1]) : packInto(work);
	const filename = path.basename(tarball);
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	const unpacked = path.join(work, 'package');

	const legs = [
		['source (package.json, nodes/, credentials/)', root, SOURCE_FILE_PATTERNS],
		[`tarball ${filename}: compiled .js and package.json`, unpacked, ['**/*.js', 'package.json']],
		[`tarball ${filename}: every file`, unpacked, undefined],
	];
	let failed = 0;
	for (const [label, dir, patterns] of legs) {
		const result = await analyzePackage(dir, patterns);
		console.log(
			`${result.passed ? 'passed' : 'FAILED'}: ${label}${result.message ? ` (${result.message})` : ''}`,
		);
		if (result.details) console.log(result.details);
		if (!result.passed) failed++;
	}
	console.log(
		failed ? `n8n scanner: ${failed} of ${legs.length} legs failed` : 'n8n scanner: no findings',
	);
	process.exitCode = failed ? 1 : 0;
} catch (error) {
	console.error(`n8n scanner could not run: ${error.message}`);
	process.exitCode = 1;
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
