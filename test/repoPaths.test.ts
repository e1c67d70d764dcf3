import { posix } from 'node:path';

import { type Comment, commentsOf, filesUnder, hashCommentsOf, read } from './repoFiles';

/*
 * A comment or a document that names a file of this repository names one that exists. A name is a
 * token ending in a known extension (`transport/run.ts`, `NOTES.md`), a `./` or `../` path, or a
 * folder path from the repository root (`nodes/PhpRank/operations/`). It exists when it resolves
 * from the root, from the naming file's folder, or as the tail of a repository path (`run.ts`,
 * `transport/run.ts`). URLs, absolute and home paths, placeholders, built or installed files and
 * other projects' files (OTHER_PROJECTS) are not this repository's. CHANGELOG.md is not read: its
 * entries name files as they were when written.
 */

const EXTENSIONS = /\.(ts|js|mjs|cjs|json|md|sh|yml|yaml|svg)$/;
const TOP_FOLDERS = /^(nodes|credentials|scripts|test|examples|\.github|\.ci)\//;

/** Paths of other projects (n8n's sources and builds, npm's folders), by their first segment. */
const OTHER_ROOTS = new Set([
	'packages',
	'n8n',
	'n8n-core',
	'n8n-workflow',
	'dist',
	'node_modules',
]);

/** Files of other projects the docs name without their project's path. */
const OTHER_PROJECTS = new Set([
	'Node.js',
	'claude_desktop_config.json', // Claude Desktop's settings (README, Use with AI agents)
	'nodes/package.json', // in n8n's user folder, ~/.n8n/nodes/
	'f.json', // the file an n8n CLI command writes (NOTES.md)
	'node-types.ts', // n8n cli's sources and build (packages/cli/src/node-types.ts)
	'node-types.js',
	'utils.js',
	'routing-node.js', // n8n-core
	'create-node-as-tool.js',
	'modules/community-packages/community-packages.service.js', // n8n cli's build
	'trigger-execution-context.factory.js', // n8n cli's workflows/triggers/
]);

const repoPaths = filesUnder('.');
const known = new Set(repoPaths.flatMap((path) => [path, ...foldersOf(path)]));
const knownList = [...known];

function foldersOf(path: string): string[] {
	const parts = path.split('/');
	return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/'));
}

/** Comment text without its markers; a path broken after a `/` at a line's end joined again. */
function plain(comment: string): string {
	return comment
		.split('\n')
		.map((line) => line.replace(/^\s*(\/\/+|\/\*+|\*+\/|\*+|#)?/, '').replace(/\*+\/\s*$/, ''))
		.join('\n')
		.replace(/\/\n\s*/g, '/');
}

/** The tokens of a text that name a file or folder of this repository. */
export function namedPaths(text: string): string[] {
	const withoutUrls = text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s)`'">\]]+/gi, ' ');
	return (withoutUrls.match(/[\w.@~$<>*/…-]+/g) ?? [])
		.map((token) => token.replace(/[.…-]+$/, ''))
		.filter((token) => {
			if (/^[~$/@]|[<>*$…]|\.\.\.|(^|\/)node_modules(\/|$)|\/dist\//.test(token)) return false;
			if (OTHER_ROOTS.has(token.split('/')[0]) || OTHER_PROJECTS.has(token)) return false;
			if (/^\.[^/]*$/.test(token)) return false; // an extension or dotfile mentioned, `.spec.ts`
			if (EXTENSIONS.test(token)) return true;
			if (/^\.\.?\/\w/.test(token)) return !/\.\w+$/.test(token); // a module, `./repoFiles`
			return TOP_FOLDERS.test(token) && (token.endsWith('/') || token.split('/').length >= 3);
		});
}

/** Whether `token`, named in a file of folder `from`, is a file or folder of the repository. */
export function exists(token: string, from: string): boolean {
	const path = token.replace(/\/$/, '');
	if (/^\.\.?\//.test(path)) {
		// A doc's code snippet may be a file of a folder below the doc's (NOTES.md's suite template in e2e/).
		const bases = [from, ...knownList.filter((known) => posix.dirname(known) === from)];
		return bases.some((base) => {
			const resolved = posix.normalize(posix.join(base, path));
			return ['', '.ts', '.js', '/index.ts'].some((ending) => known.has(resolved + ending));
		});
	}
	if (known.has(path) || known.has(posix.join(from, path))) return true;
	return knownList.some((known) => known.endsWith(`/${path}`));
}

interface Naming {
	file: string;
	line: number;
	token: string;
}

function namingsIn(file: string, comments: Comment[]): Naming[] {
	return comments.flatMap(({ text, line }) =>
		namedPaths(plain(text)).map((token) => ({ file, line, token })),
	);
}

/** The namings that name nothing, as `file:line names token`. */
function missing(namings: Naming[]): string[] {
	return namings
		.filter(({ file, token }) => !exists(token, posix.dirname(file)))
		.map(({ file, line, token }) => `${file}:${line} names ${token}`);
}

function sourcesOf(folder: string): string[] {
	return filesUnder(folder).filter((file) => /\.(ts|js|mjs)$/.test(file));
}

function lines(text: string): Comment[] {
	return text.split('\n').map((line, index) => ({ text: line, line: index + 1 }));
}

/** The sticky notes and node notes of the example workflows. */
function exampleNotes(file: string): Comment[] {
	const workflow = JSON.parse(read(file)) as {
		nodes: Array<{ parameters?: { content?: unknown }; notes?: unknown }>;
	};
	return workflow.nodes.flatMap((node, index) =>
		[node.parameters?.content, node.notes]
			.filter((text): text is string => typeof text === 'string')
			.map((text) => ({ text, line: index + 1 })),
	);
}

describe('names of repository files', () => {
	it('every comment in the code names files that exist', () => {
		const code = [
			...['nodes', 'credentials', 'scripts', 'test'].flatMap(sourcesOf),
			...filesUnder('.').filter((file) => /^[^/]+\.(js|mjs)$/.test(file)),
		];
		const shell = [
			'.ci/run',
			...filesUnder('scripts').filter((file) => file.endsWith('.sh')),
			...filesUnder('.github').filter((file) => /\.ya?ml$/.test(file)),
		];
		const namings = [
			...code.flatMap((file) => namingsIn(file, commentsOf(file))),
			...shell.flatMap((file) => namingsIn(file, hashCommentsOf(file))),
		];
		expect(namings.length).toBeGreaterThan(100);
		expect(missing(namings)).toEqual([]);
	});

	it('every document names files that exist (CHANGELOG.md, a history, is not read)', () => {
		const docs = ['README.md', 'ARCHITECTURE.md', 'scripts/n8n/NOTES.md'];
		const examples = filesUnder('examples').filter((file) => file.endsWith('.json'));
		const namings = [
			...docs.flatMap((file) => namingsIn(file, lines(read(file)))),
			...examples.flatMap((file) => namingsIn(file, exampleNotes(file))),
		];
		expect(namings.length).toBeGreaterThan(100);
		expect(missing(namings)).toEqual([]);
	});

	it('reads a name as a repository path only where it is one', () => {
		const names = namedPaths(
			[
				'see operations/list.ts and guard/repoFiles.ts (NOTES.md, ../repoFiles); ../ and ./x-1.0.tgz',
				'https://github.com/n8n-io/n8n/blob/master/packages/cli/src/node-types.ts',
				'packages/cli/src/workflows/trigger.ts, n8n/dist/load.js, ~/.cache/x/y.ts, /tmp/a.json',
				'dist/nodes/PhpRank/PhpRank.node.js, <resource>.spec.ts, .spec.ts, Node.js, the/two words',
				'the folder test/harness/ and nodes/PhpRank, credentials/workflows.',
			].join('\n'),
		);
		expect(names).toEqual([
			'operations/list.ts',
			'guard/repoFiles.ts',
			'NOTES.md',
			'../repoFiles',
			'test/harness/',
		]);
		// From test/unit: NOTES.md is scripts/n8n/NOTES.md's tail; guard/ is no folder of test/.
		const found = names.map((name) => exists(name, 'test/unit'));
		expect(found).toEqual([false, false, true, true, true]);
		expect(exists('repoFiles.ts', 'nodes')).toBe(true);
		expect(exists('test/repoFiles.ts', 'scripts/n8n')).toBe(true);
		expect(exists('./repoFiles', 'test')).toBe(true);
		expect(exists('./repoFiles', 'test/unit')).toBe(false);
		expect(exists('nodes/PhpRank/nothing/', '.')).toBe(false);
	});
});
