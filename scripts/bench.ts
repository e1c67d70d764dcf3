/*
 * npm run bench: Report → Get Many with Return All over 10,000 reports, against the bundled test
 * server, compared with a plain `fetch` loop over the same 100 pages, measured in the same run.
 * Each measurement runs in a fresh child process (so module caches and heaps do not leak between
 * them), alternating the two, and the medians are compared. Figures, not assertions: this
 * machine is noisy, so no threshold fails the run; only a wrong request count does.
 */
import { PhpRankServer, TEST_API_KEY } from '../test/server';
import {
	alternating,
	engine,
	fetchAllReports,
	forkSelf,
	median,
	nextMessage,
	probe,
	runMain,
} from './benchKit';

const REPORTS = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const VARIANTS = ['node', 'nodeFull', 'fetch'] as const;
type Variant = (typeof VARIANTS)[number];
interface Sample {
	items: number;
	wallMs: number;
	peakHeapMb: number;
	rssGrowthMb: number;
}

const measure = (variant: Variant, baseUrl: string) =>
	nextMessage<Sample>(
		forkSelf(__filename, ['--worker', variant, baseUrl], ['--expose-gc']),
		`${variant} worker`,
	);

async function main() {
	const server = new PhpRankServer({ throttle: false });
	server.seedReports(REPORTS);
	const baseUrl = await server.start();
	const samples = await alternating(ROUNDS, VARIANTS, async (variant) => {
		server.clearRequests();
		const sample = await measure(variant, baseUrl);
		return { ...sample, requests: server.requests.length };
	}).finally(() => server.stop());

	const row = (variant: Variant) => ({
		items: samples[variant][0].items,
		requests: samples[variant][0].requests,
		'wall ms (median)': Math.round(median(samples[variant].map((s) => s.wallMs))),
		'peak heap MB (median)': +median(samples[variant].map((s) => s.peakHeapMb)).toFixed(1),
		'RSS growth MB (median)': +median(samples[variant].map((s) => s.rssGrowthMb)).toFixed(1),
	});
	const [node, nodeFull, plain] = VARIANTS.map(row);
	const expected = Math.ceil(REPORTS / 100);
	const ratio = (a: number, b: number) => (a / b).toFixed(2);
	console.log(`Return All over ${REPORTS} reports, ${ROUNDS} rounds, Node ${process.version}`);
	console.table({
		'phpRank node, Simplify on (default)': node,
		'phpRank node, Simplify off': nodeFull,
		'plain fetch loop (full records)': plain,
	});
	console.log(`requests by the node: ${node.requests} (expected ${expected})`);
	console.log(
		`wall time ratio vs fetch: Simplify on ${ratio(node['wall ms (median)'], plain['wall ms (median)'])}, off ${ratio(nodeFull['wall ms (median)'], plain['wall ms (median)'])}`,
	);
	console.log(
		`peak heap ratio vs fetch: Simplify on ${ratio(node['peak heap MB (median)'], plain['peak heap MB (median)'])}, off ${ratio(nodeFull['peak heap MB (median)'], plain['peak heap MB (median)'])}`,
	);
	if (
		[...samples.node, ...samples.nodeFull].some((s) => s.requests !== expected) ||
		node.items !== REPORTS ||
		nodeFull.items !== REPORTS
	)
		throw new Error('unexpected request or item count');
}

/** One measurement, in its own process: peak = highest heap in use above the post-GC baseline. */
async function worker(variant: Variant, baseUrl: string) {
	const runNode = await engine();
	(globalThis as { gc?: () => void }).gc!();
	const rss = process.memoryUsage().rss;
	const measured = await probe(async () => {
		if (variant === 'fetch') return (await fetchAllReports(`${baseUrl}/api/v1`)).length;
		const { items, error } = await runNode(
			{ resource: 'report', operation: 'getAll', returnAll: true, simplify: variant === 'node' },
			{ baseUrl, apiKey: TEST_API_KEY },
		);
		if (error) throw error;
		return items.length;
	}, 1);
	process.send!({
		items: measured.result,
		wallMs: measured.ms,
		peakHeapMb: measured.heapMb,
		rssGrowthMb: (process.memoryUsage().rss - rss) / 1024 / 1024,
	} satisfies Sample);
}

if (process.argv[2] === '--worker')
	runMain(() => worker(process.argv[3] as Variant, process.argv[4]), { exit: true });
else runMain(main);
