#!/usr/bin/env node
/*
 * Refuses a release that n8n could not verify. n8n-nodes-phprank is published only by
 * .github/workflows/publish.yml (npm records a provenance statement there), from a version tag, with
 * the values only the repository's owner knows filled in package.json.
 *
 *   node scripts/release-guard.js            every check; the publish workflow runs it first
 *   node scripts/release-guard.js --prepack  package.json's prepack: the same checks, but only when
 *                                             npm is publishing (packing stays free)
 *
 * Why prepack: the repository's .npmrc sets ignore-scripts=true, which also skips prepublishOnly.
 * package.json's publishConfig sets ignore-scripts=false, and npm applies publishConfig to the pack
 * step of `npm publish` only, so this guard runs on every `npm publish`, --dry-run included.
 * Plain Node, no dependencies: it must run before `npm ci` too.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const WORKFLOW = '.github/workflows/publish.yml';
const PLACEHOLDER = 'REPLACE-ME';
/** npm's trusted publishing (OIDC) needs npm 11.5.1 or later. */
const MIN_NPM = [11, 5, 1];

/** The values only the repository's owner can know; all of them live in package.json. */
const OWNER_FIELDS = [
	['repository.url', (pkg) => pkg.repository && pkg.repository.url],
	['bugs.url', (pkg) => pkg.bugs && pkg.bugs.url],
	['homepage', (pkg) => pkg.homepage],
	['author.name', (pkg) => pkg.author && pkg.author.name],
	['author.email', (pkg) => pkg.author && pkg.author.email],
];

/** `owner/name` of a GitHub repository URL in any of npm's shapes, or undefined. */
function githubRepo(url) {
	const match = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/i.exec(
		String(url || ''),
	);
	return match ? match[1] : undefined;
}

function versionAtLeast(version, minimum) {
	const parts = String(version)
		.split('.')
		.map((part) => parseInt(part, 10) || 0);
	for (let i = 0; i < minimum.length; i++) {
		if (parts[i] !== minimum[i]) return parts[i] > minimum[i];
	}
	return true;
}

/** Every reason not to publish, as sentences that say what to do. */
function releaseProblems(pkg, env, changelog) {
	const problems = [];

	if (
		env.GITHUB_ACTIONS !== 'true' ||
		!String(env.GITHUB_WORKFLOW_REF || '').includes(`/${WORKFLOW}@`)
	) {
		problems.push(
			`it runs outside the GitHub Actions workflow ${WORKFLOW}. Only that workflow publishes ` +
				'n8n-nodes-phprank, because there npm records a provenance statement, and n8n verifies a community ' +
				`node only with one. To release ${pkg.version}, push the tag v${pkg.version} (README.md, "Releasing").`,
		);
	}

	const unset = OWNER_FIELDS.filter(([, read]) => {
		const value = read(pkg);
		return (
			typeof value !== 'string' ||
			value.trim() === '' ||
			value.includes(PLACEHOLDER) ||
			/\.invalid$/i.test(value)
		);
	}).map(([field]) => field);
	if (unset.length > 0)
		problems.push(
			`package.json still has placeholders where only the repository's owner knows the value: ${unset.join(', ')}. ` +
				'Set them (README.md, "Releasing").',
		);

	const repo = githubRepo(pkg.repository && pkg.repository.url);
	if (!repo) {
		problems.push(
			'repository.url must be the public GitHub repository the package is built from ' +
				'(git+https://github.com/<owner>/<name>.git): npm checks it against the provenance statement.',
		);
	} else if (!repo.includes(PLACEHOLDER)) {
		for (const [field, value] of [
			['homepage', pkg.homepage],
			['bugs.url', pkg.bugs && pkg.bugs.url],
		]) {
			if (
				!String(value || '')
					.toLowerCase()
					.startsWith(`https://github.com/${repo.toLowerCase()}`)
			)
				problems.push(
					`${field} must point into https://github.com/${repo}, the repository of repository.url.`,
				);
		}
		if (env.GITHUB_REPOSITORY && env.GITHUB_REPOSITORY.toLowerCase() !== repo.toLowerCase())
			problems.push(
				`repository.url names ${repo}, but this workflow runs in ${env.GITHUB_REPOSITORY}: npm refuses a ` +
					'provenance statement for another repository. Correct repository.url, homepage and bugs.url.',
			);
	}

	if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_REF !== `refs/tags/v${pkg.version}`)
		problems.push(
			`the workflow runs for ${env.GITHUB_REF || 'no ref'}, but package.json says version ${pkg.version}: ` +
				`publish from the tag v${pkg.version}.`,
		);

	const heading = new RegExp(
		`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`,
		'm',
	);
	if (!heading.test(changelog))
		problems.push(
			`CHANGELOG.md has no dated section "## [${pkg.version}] - YYYY-MM-DD": describe the release there and date it.`,
		);

	const npmVersion = /\bnpm\/([\d.]+)/.exec(env.npm_config_user_agent || '');
	if (npmVersion && !versionAtLeast(npmVersion[1], MIN_NPM))
		problems.push(
			`npm ${npmVersion[1]} cannot use npm's trusted publishing: use npm ${MIN_NPM.join('.')} or later.`,
		);

	return problems;
}

function main() {
	const prepack = process.argv.includes('--prepack');
	// prepack also runs for `npm pack` when scripts are enabled: packing is always allowed.
	if (prepack && process.env.npm_command !== 'publish') return 0;

	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const changelogPath = path.join(ROOT, 'CHANGELOG.md');
	const changelog = fs.existsSync(changelogPath) ? fs.readFileSync(changelogPath, 'utf8') : '';
	const problems = releaseProblems(pkg, process.env, changelog);
	if (problems.length === 0) {
		console.log(`release checks passed for ${pkg.name}@${pkg.version}`);
		return 0;
	}
	const what = prepack ? 'npm publish refused' : 'release refused';
	console.error(
		`\n${what} for ${pkg.name}@${pkg.version}:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`,
	);
	return 1;
}

if (require.main === module) process.exitCode = main();

module.exports = { releaseProblems, githubRepo };
