import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { parse } from 'yaml';

import { read, root } from './repoFiles';

// Plain Node script without types: it must run before `npm ci`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { releaseProblems } = require('../scripts/release-guard') as {
	releaseProblems: (pkg: object, env: Record<string, string>, changelog: string) => string[];
};

const run = promisify(execFile);
const pkg = JSON.parse(read('package.json')) as { name: string; version: string };

/** This machine's environment without any sign of GitHub Actions, as on a maintainer's laptop. */
function laptopEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !/^(GITHUB_|ACTIONS_|CI$)/.test(key)),
	);
}

async function npm(args: string[]): Promise<{ code: number; output: string }> {
	try {
		const { stdout, stderr } = await run('npm', args, {
			cwd: root,
			env: laptopEnv(),
			timeout: 60_000,
		});
		return { code: 0, output: stdout + stderr };
	} catch (error) {
		const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
		return { code, output: stdout + stderr };
	}
}

describe('npm publish outside the publish workflow', () => {
	it('is refused, even as a dry run, with a message that says why and what to do', async () => {
		const { code, output } = await npm(['publish', '--dry-run']);

		expect(code).not.toBe(0);
		expect(output).toContain(`npm publish refused for ${pkg.name}@${pkg.version}:`);
		expect(output).toContain('outside the GitHub Actions workflow .github/workflows/publish.yml');
		expect(output).toContain('provenance statement');
		expect(output).toContain(`push the tag v${pkg.version}`);
		expect(output).not.toMatch(/Publishing to https:\/\/registry/);
	});

	it('leaves npm pack alone, with scripts enabled too (CI and the e2e pack the package)', async () => {
		const { code, output } = await npm(['pack', '--dry-run', '--ignore-scripts=false']);

		expect(code).toBe(0);
		expect(output).toContain(`${pkg.name}-${pkg.version}.tgz`);
		expect(output).not.toContain('refused');
	});
});

describe('release checks', () => {
	const ready = {
		name: 'n8n-nodes-phprank',
		version: '1.2.0',
		homepage: 'https://github.com/acme/n8n-nodes-phprank#readme',
		bugs: { url: 'https://github.com/acme/n8n-nodes-phprank/issues' },
		repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-phprank.git' },
		author: { name: 'Acme', email: 'dev@acme.example.com' },
	};
	const workflow = {
		GITHUB_ACTIONS: 'true',
		GITHUB_REPOSITORY: 'acme/n8n-nodes-phprank',
		GITHUB_WORKFLOW_REF: 'acme/n8n-nodes-phprank/.github/workflows/publish.yml@refs/tags/v1.2.0',
		GITHUB_REF: 'refs/tags/v1.2.0',
		npm_config_user_agent: 'npm/11.6.2 node/v24.11.1 linux x64 workspaces/false ci/github-actions',
	};
	const changelog =
		'# Changelog\n\n## [1.2.0] - 2026-12-01\n\n- New things.\n\n## [1.1.0] - 2026-11-01\n';

	it('pass in the publish workflow, for the tag of the version, with every value set', () => {
		expect(releaseProblems(ready, workflow, changelog)).toEqual([]);
	});

	it('name every placeholder of the repository’s owner that package.json still has', () => {
		const problems = releaseProblems(pkg, workflow, changelog);

		expect(problems.join('\n')).toContain(
			'repository.url, bugs.url, homepage, author.name, author.email',
		);
	});

	it.each([
		[
			'another workflow',
			{ GITHUB_WORKFLOW_REF: 'acme/n8n-nodes-phprank/.github/workflows/ci.yml@refs/heads/main' },
			/outside the GitHub Actions workflow/,
		],
		['another repository', { GITHUB_REPOSITORY: 'someone/fork' }, /runs in someone\/fork/],
		[
			'a tag of another version',
			{ GITHUB_REF: 'refs/tags/v1.1.9' },
			/publish from the tag v1\.2\.0/,
		],
		['a branch', { GITHUB_REF: 'refs/heads/main' }, /publish from the tag v1\.2\.0/],
		[
			'an npm without trusted publishing',
			{ npm_config_user_agent: 'npm/10.9.2 node/v22.11.0' },
			/npm 11\.5\.1 or later/,
		],
	])('refuse %s', (_case, change, message) => {
		expect(releaseProblems(ready, { ...workflow, ...change }, changelog)).toEqual([
			expect.stringMatching(message),
		]);
	});

	it('refuse a version without a dated CHANGELOG section', () => {
		expect(releaseProblems(ready, workflow, '## [1.2.0] - unreleased\n')).toEqual([
			expect.stringContaining('no dated section "## [1.2.0] - YYYY-MM-DD"'),
		]);
	});

	it('refuse a homepage or issue tracker outside the repository', () => {
		const problems = releaseProblems(
			{ ...ready, homepage: 'https://www.npmjs.com/package/n8n-nodes-phprank' },
			workflow,
			changelog,
		);

		expect(problems).toEqual([
			expect.stringContaining('homepage must point into https://github.com/acme/n8n-nodes-phprank'),
		]);
	});
});

describe('GitHub workflows', () => {
	const workflow = (file: string) => parse(read(`.github/workflows/${file}`));
	const ci = workflow('ci.yml');
	const publish = workflow('publish.yml');
	const runs = (steps: Array<{ run?: string }>) => steps.map((step) => step.run).filter(Boolean);

	it('CI runs .ci/run on pushes, pull requests, and for the publish workflow', () => {
		expect(Object.keys(ci.on)).toEqual(
			expect.arrayContaining(['push', 'pull_request', 'workflow_call']),
		);
		expect(runs(ci.jobs.ci.steps)).toEqual(['bash .ci/run']);
	});

	it('publish runs on version tags, after the same checks, with an OIDC token for provenance', () => {
		expect(publish.on.push.tags).toEqual(['v*.*.*']);
		expect(publish.jobs.checks.uses).toBe('./.github/workflows/ci.yml');
		expect(publish.jobs.publish.needs).toBe('checks');
		expect(publish.jobs.publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(runs(publish.jobs.publish.steps)).toEqual([
			'node scripts/release-guard.js',
			'npm ci --no-audit --no-fund',
			'npm run build',
			'npm run scan',
			'npm publish --provenance --access public',
		]);
	});
});
