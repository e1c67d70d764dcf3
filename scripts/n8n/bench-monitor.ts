/**
 * The monitoring table of `npm run bench:n8n` (scripts/n8n/bench.ts, issue 19): the test server's side of it
 * (the reports to seed, the throttle, requests counted by kind) and the figures that need no n8n (the input
 * URLs as users spell them, the throttle's floor). The workflows and the run itself are in bench.ts.
 */
import type { PhpRankServer, RecordedRequest, ThrottleOptions } from '../../test/server';

export type MonitorCommand =
	/** Replaces every report: `others` over the default hosts, then `siteReports` of `site`, a URL each. */
	| { cmd: 'monitor-seed'; others: number; site: string; siteReports: number }
	/** Deletes every report of `site` (the first run: the site has none yet). */
	| { cmd: 'delete-site'; site: string }
	/** A new throttle, every user's window forgotten; the request log and the counters cleared. */
	| { cmd: 'throttle'; throttle: ThrottleOptions | false }
	/**
	 * For Confirm Drops, of the pages scoring over SCRIPTED_DROP: one in `every` drops by it and comes back 1
	 * below (noise), the next drops by it and stays (real); the rest keep their scores. Answers both lists.
	 */
	| { cmd: 'script-drops'; site: string; every: number }
	| { cmd: 'monitor-stats'; site: string };

/** The API requests of one run, by kind; `list`, `put` and `post` count answered ones (2xx). */
export interface MonitorCounts {
	/** GET /reports with `project` = the site */
	list: number;
	/** GET /reports without it, or of another project */
	otherList: number;
	/** PUT /reports/{id} with results=1 (a re-run) */
	put: number;
	/** POST /reports */
	post: number;
	/** 2xx answers to anything else */
	other: number;
	/** answered 429 by the throttle */
	throttled: number;
	/** answered neither 2xx nor 429 */
	failed: number;
	/** reports the server has created since it started */
	createdTotal: number;
	/** reports of the site now */
	siteReports: number;
}

/** Child side: what the server process does on a monitoring command; the answer is sent to the parent. */
export function monitorCommand(server: PhpRankServer, message: MonitorCommand): object {
	switch (message.cmd) {
		case 'monitor-seed': {
			server.deleteAllReports();
			// The site's reports first: an account-wide list, newest first, would have to read all the others first.
			const urls = server
				.seedReports(message.siteReports, { hosts: [message.site], uniqueUrls: true })
				.map((report) => report.url);
			server.seedReports(message.others);
			server.clearRequests();
			return { urls };
		}
		case 'delete-site': {
			const doomed = server.listReports().filter((report) => report.project === message.site);
			for (const report of doomed) server.deleteReport(report.id);
			return { deleted: doomed.length };
		}
		case 'throttle':
			server.setThrottle(message.throttle);
			server.clearRequests();
			server.resetStats();
			return {};
		case 'script-drops': {
			const noisy: string[] = [];
			const real: string[] = [];
			const reports = server.listReports().filter((report) => report.project === message.site);
			reports.forEach((report, i) => {
				const score = report.result;
				const turn = i % message.every;
				if (score > SCRIPTED_DROP && turn < 2) {
					server.setNextAnalysis(report.url, { score: score - SCRIPTED_DROP, others: 'keep' });
					server.setNextAnalysis(report.url, {
						score: turn === 0 ? score - 1 : score - SCRIPTED_DROP + 1,
						others: 'keep',
					});
					(turn === 0 ? noisy : real).push(report.url);
				} else {
					server.setNextAnalysis(report.url, { score, others: 'keep' });
				}
			});
			return { noisy, real };
		}
		case 'monitor-stats': {
			const counts = { list: 0, otherList: 0, put: 0, post: 0, other: 0, throttled: 0, failed: 0 };
			for (const request of server.requests)
				if (request.path.startsWith('/api/')) counts[kindOf(request, message.site)]++;
			const site = server.listReports().filter((report) => report.project === message.site);
			return {
				...counts,
				createdTotal: server.createdCount,
				siteReports: site.length,
			} satisfies MonitorCounts;
		}
	}
}

/** Which count of MonitorCounts an API request of a monitoring run adds to. */
function kindOf(
	request: RecordedRequest,
	site: string,
): Exclude<keyof MonitorCounts, 'createdTotal' | 'siteReports'> {
	const status = request.status ?? 0;
	if (status === 429) return 'throttled';
	if (status < 200 || status >= 300) return 'failed';
	if (request.method === 'GET' && request.path === '/api/v1/reports')
		return request.query.project === site ? 'list' : 'otherList';
	const put = request.method === 'PUT' && /^\/api\/v1\/reports\/\d+$/.test(request.path);
	if (put && rerunAsked(request)) return 'put';
	return request.method === 'POST' && request.path === '/api/v1/reports' ? 'post' : 'other';
}

/** The points a scripted drop falls by (script-drops): well over Confirm Drops' default of 5. */
export const SCRIPTED_DROP = 12;

/** results=1 in the form, the query or a JSON body. */
function rerunAsked(request: RecordedRequest): boolean {
	return (
		request.form.results === '1' ||
		request.query.results === '1' ||
		/"results"\s*:\s*(1|true|"1")\b/.test(request.rawBody)
	);
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
