import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ICredentialType } from 'n8n-workflow';
import * as ts from 'typescript';

/** The repository's files as the guard tests read them (repoPaths, comments, importCycles). */

export const root = join(__dirname, '..');

const NEVER = new Set(['node_modules', 'dist', 'coverage', '.git']);

/** Every file under `folder` (repository-relative, `/`-separated), without built or installed ones. */
export function filesUnder(folder: string): string[] {
	return readdirSync(join(root, folder), { withFileTypes: true })
		.filter((entry) => !NEVER.has(entry.name))
		.flatMap((entry) => {
			const path = folder === '.' ? entry.name : `${folder}/${entry.name}`;
			return entry.isDirectory() ? filesUnder(path) : [path];
		})
		.sort();
}

export function read(path: string): string {
	return readFileSync(join(root, path), 'utf8');
}

/** The credential types package.json ships (`n8n.credentials`, built files), each loaded from its source. */
export function shippedCredentials(): ICredentialType[] {
	const { credentials } = (JSON.parse(read('package.json')) as { n8n: { credentials: string[] } })
		.n8n;
	return credentials.map((file) => {
		const source = join(root, file.replace(/^dist\//, '').replace(/\.js$/, ''));
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const [Type] = Object.values(require(source) as Record<string, new () => ICredentialType>);
		return new Type();
	});
}

/** A comment of a source file: its text and the line (1-based) it starts on. */
export interface Comment {
	text: string;
	line: number;
}

/** Every comment of a TypeScript or JavaScript file, found by TypeScript's own parser. */
export function commentsOf(path: string): Comment[] {
	const text = read(path);
	const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
	const found = new Map<number, Comment>();
	const visit = (node: ts.Node) => {
		for (const range of [
			...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
			...(ts.getTrailingCommentRanges(text, node.end) ?? []),
		]) {
			const line = source.getLineAndCharacterOfPosition(range.pos).line + 1;
			found.set(range.pos, { text: text.slice(range.pos, range.end), line });
		}
		node.getChildren(source).forEach(visit);
	};
	visit(source);
	return [...found.entries()].sort(([a], [b]) => a - b).map(([, comment]) => comment);
}

/** Each `#` comment of a shell script or a YAML file, whole-line or after code (not the `#!` line). */
export function hashCommentsOf(path: string): Comment[] {
	return read(path)
		.split('\n')
		.map((line, index) => ({ text: /(?:^|\s)(# .*)$/.exec(line)?.[1] ?? '', line: index + 1 }))
		.filter(({ text }) => text !== '');
}
