/**
 * What the bench scripts share: medians, figures, Markdown tables, variants measured in rounds of
 * alternating order, a wall-time and peak-heap probe, and n8n-core's engine loaded as the tests load it.
 */
import type { runNode } from '../test/harness/engine';
import { TEST_API_KEY } from '../test/server';

export const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');
export const ms = (n: number): string => `${int(n)} ms`;
export const times = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
export const plural = (n: number, word: string): string => `${int(n)} ${word}${n === 1 ? '' : 's'}`;

/** `title`, a blank line, then the Markdown table. */
export function printTable(title: string, header: string[], rows: string[][]): void {
	const lines = [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`);
	console.log(`${title}\n\n${lines.join('\n')}`);
}

type Page = { data: unknown; meta?: { current_page: number; last_page: number } };
/** GET from the test server's API with its key, as JSON; throws on an answer other than 2xx. */
export async function getJson(url: string): Promise<Page> {
	const res = await fetch(url, {
		headers: { Authorization: `Bearer ${TEST_API_KEY}`, Accept: 'application/json' },
	});
	if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
	return (await res.json()) as Page;
}

/** Every report of `api` (…/api/v1), 100 a page, pages in sequence: a plain `fetch` loop. */
export async function fetchAllReports(api: string): Promise<unknown[]> {
	const items: unknown[] = [];
	for (let page = 1; ; page++) {
		const body = await getJson(`${api}/reports?per_page=100&page=${page}`);
		items.push(...(body.data as unknown[]));
		if (!body.meta || body.meta.current_page >= body.meta.last_page) return items;
	}
}

/**
 * Each variant once a round, the order reversed every other round; every variant's results in round
 * order. `warmUp` runs once before, not counted; `roundDone` is told after each round.
 */
export async function alternating<V extends string, T>(
	rounds: number,
	variants: readonly V[],
	run: (variant: V) => Promise<T>,
	{
		warmUp,
		roundDone,
	}: { warmUp?: V; roundDone?: (round: number, all: Record<V, T[]>) => void } = {},
): Promise<Record<V, T[]>> {
	const all = Object.fromEntries(variants.map((v) => [v, [] as T[]])) as Record<V, T[]>;
	if (warmUp) await run(warmUp);
	for (let round = 0; round < rounds; round++) {
		for (const v of round % 2 ? [...variants].reverse() : variants) all[v].push(await run(v));
		roundDone?.(round, all);
	}
	return all;
}

/** Each of `keys` as the median over `samples`, rounded to a tenth. */
export function medians<K extends string>(
	samples: Array<Record<K, number>>,
	keys: readonly K[],
): Record<K, number> {
	const pick = (key: K) => Math.round(median(samples.map((s) => s[key])) * 10) / 10;
	return Object.fromEntries(keys.map((key) => [key, pick(key)])) as Record<K, number>;
}

/** `work`'s wall time and the peak heap in use above its start, sampled every 5 ms. */
export async function probe<T>(
	work: () => Promise<T>,
): Promise<{ result: T; ms: number; heapMb: number }> {
	const start = process.memoryUsage().heapUsed;
	let peak = start;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
	const started = performance.now();
	try {
		const result = await work();
		const ms = performance.now() - started;
		peak = Math.max(peak, process.memoryUsage().heapUsed);
		return { result, ms, heapMb: (peak - start) / 1024 / 1024 };
	} finally {
		clearInterval(sampler);
	}
}

/** The engine's runNode, test/harness/env.ts loaded first (as jest's setup does). */
export async function engine(): Promise<typeof runNode> {
	await import('../test/harness/env');
	return (await import('../test/harness/engine')).runNode;
}

/** Runs `main`; an error is printed and sets exit code 1. */
export function runMain(main: () => Promise<void>): void {
	main().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
