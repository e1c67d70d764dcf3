import { posix } from 'node:path';

import * as ts from 'typescript';

import { filesUnder, read } from './repoFiles';

/*
 * No import circle in the package or its harness: no file imports one that imports it back,
 * directly or through others. Every relative import counts: `import`, `import type`, `export … from`,
 * `require()` and `import()`. Circles are the strongly connected components of the import graph.
 */

const FOLDERS = ['nodes', 'credentials', 'scripts', 'test'];
const ENDINGS = ['', '.ts', '.js', '.mjs', '.json', '/index.ts', '/index.js'];

type Graph = Map<string, string[]>;

/** The relative imports of each file, resolved to files of `files`. */
export function importGraph(files: string[], textOf: (file: string) => string): Graph {
	const known = new Set(files);
	return new Map(
		files.map((file) => {
			const { importedFiles } = ts.preProcessFile(textOf(file), true, true);
			const targets = importedFiles
				.map(({ fileName }) => fileName)
				.filter((name) => name.startsWith('./') || name.startsWith('../'))
				.map((name) => posix.normalize(posix.join(posix.dirname(file), name)))
				.map((base) => ENDINGS.map((ending) => base + ending).find((path) => known.has(path)))
				.filter((path): path is string => path !== undefined);
			return [file, [...new Set(targets)]];
		}),
	);
}

/** Each circle of the graph as one path through it that ends where it starts (Tarjan's SCCs). */
export function circles(graph: Graph): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const found: string[][] = [];
	const visit = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (stack.includes(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const component = stack.splice(stack.indexOf(file));
		const selfImport = graph.get(file)?.includes(file);
		if (component.length > 1 || selfImport) found.push(pathThrough(graph, component));
	};
	for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
	return found;
}

/** A shortest path from the component's first file back to it, inside the component. */
function pathThrough(graph: Graph, component: string[]): string[] {
	const members = new Set(component);
	const start = [...component].sort()[0];
	const cameFrom = new Map<string, string>();
	const queue = [start];
	while (queue.length > 0) {
		const file = queue.shift()!;
		for (const next of graph.get(file) ?? []) {
			if (!members.has(next)) continue;
			if (next === start) {
				const path = [file];
				while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
				return [...path, start];
			}
			if (!cameFrom.has(next)) {
				cameFrom.set(next, file);
				queue.push(next);
			}
		}
	}
	return component;
}

describe('imports', () => {
	it('form no circle in nodes/, credentials/, scripts/ or test/', () => {
		const files = FOLDERS.flatMap(filesUnder).filter((file) => /\.(ts|js|mjs)$/.test(file));
		const graph = importGraph(files, read);
		expect([...graph.values()].flat().length).toBeGreaterThan(200);
		expect(circles(graph).map((circle) => circle.join(' → '))).toEqual([]);
	});

	it('finds a circle of type imports, re-exports and require() through several files', () => {
		const sources: Record<string, string> = {
			'a/one.ts': "import type { Two } from './two';\nimport { x } from 'n8n-workflow';",
			'a/two.ts': "export { three } from '../b/three';",
			'b/three.ts': "const one = require('../a/one');",
			'b/alone.ts': "import { three } from './three';",
			'b/self.ts': "import { self } from './self';",
		};
		const graph = importGraph(Object.keys(sources), (file) => sources[file]);
		expect(circles(graph)).toEqual([
			['a/one.ts', 'a/two.ts', 'b/three.ts', 'a/one.ts'],
			['b/self.ts', 'b/self.ts'],
		]);
	});
});
