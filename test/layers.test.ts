import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The layers of ARCHITECTURE.md (node → descriptions → operations → engine → history → site → base
 * files → transport) are held by lint (eslint.config.mjs, no-restricted-imports per folder), and
 * `npm run lint` runs in CI. This proves the rule bites: an upward import in each layer and an
 * operation importing another are errors, a downward one is not.
 */

const root = join(__dirname, '..');

/*
 * ESLint loads eslint.config.mjs with a dynamic import, which jest's module sandbox refuses: the
 * sources are linted by ESLint's Node API in a plain Node process, all in one go.
 */
const LINT = `
import { ESLint } from 'eslint';
const eslint = new ESLint({ cwd: process.cwd() });
const jobs = JSON.parse(process.argv[1]);
const out = [];
for (const { file, source } of jobs) {
	const [result] = await eslint.lintText(source, { filePath: file });
	out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
}
const tree = await eslint.lintFiles(['nodes/**/*.ts']);
out.push(tree.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => r.filePath + ': ' + m.message)));
process.stdout.write(JSON.stringify(out));
`;

function lintAll(jobs: Array<{ file: string; source: string }>): string[][] {
	const output = execFileSync(
		process.execPath,
		['--input-type=module', '-e', LINT, JSON.stringify(jobs)],
		{ cwd: root, encoding: 'utf8' },
	);
	return JSON.parse(output) as string[][];
}

const cases: Array<[string, string, boolean]> = [
	// [file, import, refused]
	['nodes/PhpRank/transport/x.ts', '../operations/output', true],
	['nodes/PhpRank/transport/x.ts', '../engine/routes', true],
	['nodes/PhpRank/transport/x.ts', '../history/model', true],
	['nodes/PhpRank/transport/x.ts', '../site/figures', true],
	['nodes/PhpRank/transport/x.ts', '../input', true],
	['nodes/PhpRank/transport/x.ts', '../descriptions/report/report.spec', true],
	['nodes/PhpRank/transport/x.ts', '../methods/listSearch', true],
	['nodes/PhpRank/transport/x.ts', '../PhpRank.node', true],
	['nodes/PhpRank/transport/x.ts', '../../PhpRankTrigger/poll', true],
	['nodes/PhpRank/transport/x.ts', './request', false],
	['nodes/PhpRank/transport/x.ts', '../api', false],
	['nodes/PhpRank/x.ts', './site/figures', true],
	['nodes/PhpRank/x.ts', './engine/analysis', true],
	['nodes/PhpRank/x.ts', './transport/request', false],
	['nodes/PhpRank/x.ts', './bounds', false],
	['nodes/PhpRank/site/x.ts', '../history/model', true],
	['nodes/PhpRank/site/x.ts', '../engine/render', true],
	['nodes/PhpRank/site/x.ts', '../input', false],
	['nodes/PhpRank/history/x.ts', '../engine/branding', true],
	['nodes/PhpRank/history/x.ts', '../operations/compare/step', true],
	['nodes/PhpRank/history/x.ts', '../site/types', false],
	['nodes/PhpRank/engine/x.ts', '../operations/createOrRerun/step', true],
	['nodes/PhpRank/engine/x.ts', '../descriptions/common', true],
	['nodes/PhpRank/engine/x.ts', '../history/keep', false],
	['nodes/PhpRank/operations/compare/x.ts', '../createOrRerun/step', true],
	['nodes/PhpRank/operations/getHealth/x.ts', '../compare/checks', true],
	['nodes/PhpRank/operations/getHealth/x.ts', '../../descriptions/common', true],
	['nodes/PhpRank/operations/getHealth/x.ts', '../../methods/credentialTest', true],
	['nodes/PhpRank/operations/getHealth/x.ts', '../../../PhpRankTrigger/sample', true],
	['nodes/PhpRank/operations/compare/x.ts', './checks', false],
	['nodes/PhpRank/operations/compare/x.ts', '../../engine/analysis', false],
	['nodes/PhpRank/operations/getHealth/x.ts', '../../site/figures', false],
	['nodes/PhpRank/operations/getHealth/x.ts', '../../transport/request', false],
	['nodes/PhpRank/descriptions/report/x.ts', '../../methods/listSearch', true],
	['nodes/PhpRank/descriptions/report/x.ts', '../../PhpRank.node', true],
	['nodes/PhpRank/descriptions/report/x.ts', '../../operations/compare/step', false],
	['nodes/PhpRank/descriptions/x.ts', '../transport/resource', false],
];

describe('the layers hold by lint', () => {
	let results: string[][] = [];
	beforeAll(() => {
		results = lintAll(
			cases.flatMap(([file, from]) => [
				{
					file: join(root, file),
					source: `import { something } from '${from}';\nexport const used = something;\n`,
				},
				{
					file: join(root, file),
					source: `import type { Something } from '${from}';\nexport type Used = Something;\n`,
				},
			]),
		);
	});

	it.each(cases.map((entry, index) => [...entry, index] as const))(
		'%s importing %s: refused %s',
		(_file, _from, refused, index) => {
			const [value, onlyType] = [results[2 * index], results[2 * index + 1]];
			expect(value.length > 0).toBe(refused);
			// A type is as much a tie to a higher layer as a value.
			expect(onlyType.length > 0).toBe(refused);
			if (refused)
				expect(value[0]).toMatch(
					/^'.*' import is restricted .*(Upward|Sideways) import: .* \(ARCHITECTURE\.md, Layers\)\.$/,
				);
		},
	);

	it('the package itself has no upward import', () => {
		expect(results[results.length - 1]).toEqual([]);
	});

	it('operations/ holds one folder per operation and nothing they share', () => {
		const entries = readdirSync(join(root, 'nodes/PhpRank/operations'), { withFileTypes: true });
		expect(entries.filter((entry) => !entry.isDirectory()).map(({ name }) => name)).toEqual([]);
		expect(entries.length).toBeGreaterThan(5);
	});
});
