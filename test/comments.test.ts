import * as ts from 'typescript';

import { filesUnder, read } from './repoFiles';

/*
 * Comments in nodes/ say what and why in a few lines; longer reasoning belongs in ARCHITECTURE.md
 * or scripts/n8n/NOTES.md. A comment line is one whose trimmed text starts with `//`, `/*`, `*` or
 * `*\/`; the share is over every line of every .ts file in nodes/. A file's header is the longest
 * run of comment lines before its first statement that is not an import.
 */

const MAX_COMMENT_SHARE = 0.12;
const MAX_HEADER_LINES = 10;

const isComment = (line: string) => /^(\/\/|\/\*|\*)/.test(line.trim());

/** The longest run of comment lines before the file's first statement that is not an import. */
export function headerLines(text: string): number {
	const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
	const first = source.statements.find(
		(statement) => !ts.isImportDeclaration(statement) && !ts.isImportEqualsDeclaration(statement),
	);
	const end = first ? source.getLineAndCharacterOfPosition(first.getStart(source)).line : Infinity;
	let longest = 0;
	let run = 0;
	for (const line of text.split('\n').slice(0, end)) {
		run = isComment(line) ? run + 1 : 0;
		longest = Math.max(longest, run);
	}
	return longest;
}

const sources = filesUnder('nodes').filter((file) => file.endsWith('.ts'));

describe('comments in nodes/', () => {
	it(`are at most ${MAX_COMMENT_SHARE * 100}% of its lines`, () => {
		const lines = sources.flatMap((file) => read(file).split('\n'));
		const comments = lines.filter(isComment).length;
		const share = comments / lines.length;
		const figure = `${comments} of ${lines.length} lines (${(share * 100).toFixed(1)}%)`;
		expect({ figure, withinLimit: share <= MAX_COMMENT_SHARE }).toEqual({
			figure,
			withinLimit: true,
		});
	});

	it(`open each file with a header of at most ${MAX_HEADER_LINES} lines`, () => {
		const long = sources
			.map((file) => ({ file, lines: headerLines(read(file)) }))
			.filter(({ lines }) => lines > MAX_HEADER_LINES)
			.map(({ file, lines }) => `${file}: ${lines} header lines`);
		expect(long).toEqual([]);
	});

	it('count a header as the comment block before the first statement, after the imports', () => {
		const header = (lines: number) => ['/*', ...Array(lines - 2).fill(' * x'), ' */'].join('\n');
		expect(headerLines(`import a from 'a';\n\n${header(12)}\n\nexport const b = a;\n`)).toBe(12);
		expect(headerLines(`${header(4)}\nimport a from 'a';\n// two\nexport const b = a;\n`)).toBe(4);
		expect(headerLines(`// one\nimport a from 'a';\n\n${header(11)}\nexport const b = a;\n`)).toBe(
			11,
		);
		expect(headerLines(`export const b = 1;\n${header(20)}\nexport const c = 2;\n`)).toBe(0);
		expect(headerLines(`import a from 'a';\n`)).toBe(0);
	});
});
