/*
 * npm run bench:throttle: 200 Create items through the node with its default settings, against
 * a test server enforcing phpRank's default throttle (60 requests a minute per user, fixed
 * window). Prints requests sent, 429s received and the wall time next to the floor the limit
 * implies, and checks that exactly 200
 * reports were created, none twice, no item failed. Takes about three minutes.
 */
import { PhpRankServer, TEST_API_KEY } from '../test/server';
import { engine, runMain } from './benchKit';

const ITEMS = Number(process.env.ITEMS ?? 200);
const LIMIT = 60;
const WINDOW_MS = 60_000;

runMain(async () => {
	const runNode = await engine();
	const server = new PhpRankServer({ throttle: { limit: LIMIT, windowMs: WINDOW_MS } });
	await server.start();
	try {
		const urls = Array.from({ length: ITEMS }, (_, i) => ({
			url: `https://site-${i}.example.com/`,
		}));
		const started = Date.now();
		const { items, error } = await runNode(
			{ resource: 'report', operation: 'create', url: '={{ $json.url }}' },
			{ baseUrl: server.url, apiKey: TEST_API_KEY },
			{ items: urls },
		);
		const wallS = (Date.now() - started) / 1000;
		const posts = server.requests.filter((r) => r.method === 'POST').length;
		const throttled = server.requests.filter((r) => r.method === 'POST' && r.status === 429).length;
		const created = server.listReports().map((r) => r.url);
		const floorS = (Math.ceil(ITEMS / LIMIT) - 1) * (WINDOW_MS / 1000);
		console.table({
			items: ITEMS,
			'output items': items.length,
			'failed items': items.filter((i) => i.json.error !== undefined).length + (error ? 1 : 0),
			'reports created': server.createdCount,
			'distinct URLs created': new Set(created).size,
			'POST requests (429s included)': posts,
			'answered 429': throttled,
			'peak requests in flight': server.stats.peakInFlight,
			'wall time s': +wallS.toFixed(1),
			'floor s (first window at once, then 60 per window)': floorS,
			'wall / floor': +(wallS / floorS).toFixed(3),
		});
		if (error || server.createdCount !== ITEMS || new Set(created).size !== ITEMS)
			process.exitCode = 1;
	} finally {
		await server.stop();
	}
});
