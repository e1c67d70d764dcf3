/**
 * The phpRank test server of `npm run bench:n8n` (scripts/n8n/bench.ts) in a process of its own, so that it never
 * shares an event loop with a client: what it does on each call from the bench (seeding, the throttle, requests
 * counted by kind, the monitoring table's scripted drops), and the figures that need no n8n (the input URLs as
 * users spell them, the throttle's floor). The workflows and the runs are in bench.ts.
 */
import { fork } from 'child_process';

import { fetchAllReports } from '../benchKit';
import { PhpRankServer, type RecordedRequest, type ThrottleOptions } from '../../test/server';

/** The points a scripted drop falls by (scriptDrops): well over Confirm Drops' default of 5. */
export const SCRIPTED_DROP = 12;

/** The API requests of one monitoring run, by kind; `list`, `put` and `post` count answered ones (2xx). */
const noRequests = () => ({
	/** GET /reports with `project` = the site */
	list: 0,
	/** GET /reports without it, or of another project */
	otherList: 0,
	/** PUT /reports/{id} with results=1 (a re-run) */
	put: 0,
	/** POST /reports */
	post: 0,
	/** 2xx answers to anything else */
	other: 0,
	/** answered 429 by the throttle */
	throttled: 0,
	/** answered neither 2xx nor 429 */
	failed: 0,
});

const ofSite = (server: PhpRankServer, site: string) =>
	server.listReports().filter((report) => report.project === site);

/** What the server process does on each call; the answer goes back to the bench. */
const CALLS = {
	/** Replaces every report with `reports` seeded ones, listed once (so that no contender pays for the
	 * server's first encoding of each report); the first id. */
	seed: async (server: PhpRankServer, { reports }: { reports: number }) => {
		server.deleteAllReports();
		const ids = server.seedReports(reports).map((report) => report.id);
		await fetchAllReports(`${server.url}/api/v1`);
		server.clearRequests();
		return ids[0];
	},
	/** The request log and the counters cleared. */
	reset: (server: PhpRankServer) => {
		server.clearRequests();
		server.resetStats();
	},
	/** API requests since the reset, and the answers other than 2xx. */
	stats: (server: PhpRankServer) => ({
		requests: server.requests.filter((request) => request.path.startsWith('/api/')).length,
		failed: Object.entries(server.stats.statuses)
			.filter(([status]) => Number(status) >= 300)
			.reduce((sum, [, n]) => sum + n, 0),
	}),
	/** Replaces every report: `others` over the default hosts, then `siteReports` of `site`, a URL each. */
	monitorSeed: (
		server: PhpRankServer,
		o: { others: number; site: string; siteReports: number },
	) => {
		server.deleteAllReports();
		// The site's reports first: an account-wide list, newest first, would have to read all the others first.
		const urls = server
			.seedReports(o.siteReports, { hosts: [o.site], uniqueUrls: true })
			.map((report) => report.url);
		server.seedReports(o.others);
		server.clearRequests();
		return urls;
	},
	/** Deletes every report of `site` (the first run: the site has none yet). */
	deleteSite: (server: PhpRankServer, { site }: { site: string }) => {
		for (const report of ofSite(server, site)) server.deleteReport(report.id);
	},
	/** A new throttle, every user's window forgotten; the request log and the counters cleared. */
	throttle: (server: PhpRankServer, throttle: ThrottleOptions) => {
		server.setThrottle(throttle);
		CALLS.reset(server);
	},
	/**
	 * For Confirm Drops, of the pages scoring over SCRIPTED_DROP: one in `every` drops by it and comes back 1
	 * below (noise), the next drops by it and stays (real); the rest keep their scores. Both lists.
	 */
	scriptDrops: (server: PhpRankServer, { site, every }: { site: string; every: number }) => {
		const drops = { noisy: [] as string[], real: [] as string[] };
		ofSite(server, site).forEach((report, i) => {
			const [score, turn] = [report.result, i % every];
			if (score > SCRIPTED_DROP && turn < 2) {
				server.setNextAnalysis(report.url, { score: score - SCRIPTED_DROP, others: 'keep' });
				const back = turn === 0 ? score - 1 : score - SCRIPTED_DROP + 1;
				server.setNextAnalysis(report.url, { score: back, others: 'keep' });
				drops[turn === 0 ? 'noisy' : 'real'].push(report.url);
			} else server.setNextAnalysis(report.url, { score, others: 'keep' });
		});
		return drops;
	},
	/** The API requests about `site` by kind, the reports created since the start, the site's reports now. */
	monitorStats: (server: PhpRankServer, { site }: { site: string }) => {
		const counts = noRequests();
		for (const request of server.requests)
			if (request.path.startsWith('/api/')) counts[kindOf(request, site)]++;
		return {
			...counts,
			createdTotal: server.createdCount,
			siteReports: ofSite(server, site).length,
		};
	},
};
type Calls = typeof CALLS;

/** Which count of a monitoring run an API request adds to. */
function kindOf(request: RecordedRequest, site: string): keyof ReturnType<typeof noRequests> {
	const status = request.status ?? 0;
	if (status === 429) return 'throttled';
	if (status < 200 || status >= 300) return 'failed';
	if (request.method === 'GET' && request.path === '/api/v1/reports')
		return request.query.project === site ? 'list' : 'otherList';
	const put = request.method === 'PUT' && /^\/api\/v1\/reports\/\d+$/.test(request.path);
	// results=1 in the form, the query or a JSON body
	const rerun =
		request.form.results === '1' ||
		request.query.results === '1' ||
		/"results"\s*:\s*(1|true|"1")\b/.test(request.rawBody);
	if (put && rerun) return 'put';
	return request.method === 'POST' && request.path === '/api/v1/reports' ? 'post' : 'other';
}

/** The test server in a child process (this file under ts-node): its URL, `call`, `stop`. */
export async function startServerProcess() {
	const child = fork(__filename, [], {
		execArgv: ['-r', 'ts-node/register/transpile-only'],
		env: { ...process.env, TS_NODE_PREFER_TS_EXTS: 'true' },
	});
	/** The next message of the child; rejects when it exits (or cannot start) first. */
	const next = <T>() =>
		new Promise<T>((resolve, reject) => {
			const onExit = (code: number | null) =>
				reject(new Error(`test server process: exit ${code}`));
			child.once('exit', onExit).once('error', reject);
			child.once('message', (message: T) => {
				child.off('exit', onExit).off('error', reject);
				resolve(message);
			});
		});
	const url = await next<string>();
	return {
		url,
		/** One of CALLS in the server process, and its answer. */
		call: async <K extends keyof Calls>(
			name: K,
			...args: Parameters<Calls[K]> extends [unknown, infer A] ? [A] : []
		) => {
			const reply = next<Awaited<ReturnType<Calls[K]>>>();
			child.send({ name, args });
			return await reply;
		},
		stop: () => child.connected && child.disconnect(),
	};
}

if (require.main === module) {
	const server = new PhpRankServer({ throttle: false });
	void server.start().then((url) => {
		process.on('message', async ({ name, args }: { name: keyof Calls; args: [never] }) => {
			const call = CALLS[name] as (server: PhpRankServer, ...args: [never]) => unknown;
			process.send?.((await call(server, ...args)) ?? null);
		});
		process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
		process.send?.(url);
	});
}

/**
 * The stored URLs (`host/path`, as phpRank keeps them) as a sheet of pages to watch would hold them: with a
 * scheme, some with `www.`, a trailing slash, http, or the host in capitals. One page each, to the node.
 */
export function spelledUrls(stored: string[]): string[] {
	const spellings = [
		(url: string) => `https://${url}`,
		(url: string) => `https://www.${url}/`,
		(url: string) => `http://${url}/`,
		(url: string) => `http://www.${url}`,
		(url: string) => `https://${url.replace(/^[^/]*/, (host) => host.toUpperCase())}`,
	];
	return stored.map((url, i) => spellings[i % spellings.length](url));
}

/**
 * The least time `requests` take under a fixed-window throttle (Laravel's, phpRank's): `limit` in the window
 * opened by the first request, then the next window opens when that one ends; the last request cannot be sent
 * before the start of window ceil(requests / limit). The time of the requests themselves is not counted.
 */
export function throttleFloorMs(requests: number, { limit, windowMs }: ThrottleOptions): number {
	return Math.max(0, Math.ceil(requests / limit) - 1) * windowMs;
}
