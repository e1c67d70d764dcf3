/**
 * `npm run bench:agency -- --faults` (issue 54; the schedule: README, Sizing, "Through faults"): the faults
 * injected during one run of the agency example, then, per fault (the sites whose execution was open during it;
 * for the kill, those on the killed worker) and for the whole run: sites audited once, twice, not at all,
 * history rows, executions by status; phpRank's return (peak in flight, busiest second); the promise's breaches.
 */
import type { PhpRankServer } from '../../test/server';
import { historyTables, tally, type Agency, type AgencyOptions, type AgencyRun } from './agency';
import { sleep } from './proc';
import { startWorker } from './server';

export interface FaultWindow {
	name: string;
	from: number;
	to: number;
	/** the killed worker's executions open when it died */
	held?: Set<string>;
	note: string;
}

/** What happened to the faults, as `inject` saw it. */
export interface FaultLog {
	windows: FaultWindow[];
	/** phpRank's return: peak in flight during the outage and in the 30 s after, busiest second after */
	back?: { peakDuring: number; peakAfter: number; busiestSecondAfter: number };
}

const at = async (start: number, seconds: number) =>
	await sleep(Math.max(0, start + seconds * 1000 - Date.now()));

/** The faults, in order; resolves 30 s after phpRank is back. */
export async function inject(
	agency: Agency,
	api: PhpRankServer,
	o: AgencyOptions,
	dispatcherId: string,
	log: FaultLog,
): Promise<void> {
	const start = Date.now();
	const { cluster, proxy } = agency;
	await at(start, 20);
	const running = cluster.ranBy(dispatcherId);
	const index = cluster.workers.findIndex((w) => !running.includes(w.name));
	const victim = cluster.workers[index];
	const killed = Date.now();
	const started = new Set(
		[...victim.logs().matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]),
	);
	process.kill(-victim.pid, 'SIGKILL');
	const note = `${victim.name} killed (the dispatcher on ${running.join(', ') || 'neither'})`;
	const restarted = sleep(10_000)
		.then(() => startWorker(victim.sandbox, { name: victim.name, concurrency: o.concurrency }))
		.then((worker) => {
			cluster.workers[index] = worker;
			log.windows.unshift({
				name: 'worker killed -9',
				from: killed,
				to: Date.now(),
				held: started,
				note,
			});
		});
	await at(start, 35);
	const redisFrom = Date.now();
	await cluster.redis.restart();
	log.windows.push({ name: 'Redis restarted', from: redisFrom, to: Date.now(), note: '' });
	await at(start, 50);
	log.back = await outage(api, log);
	await at(start, 200);
	const apiDown = { from: Date.now(), to: Date.now() + 60_000 };
	proxy.fault = () => (Date.now() < apiDown.to ? 500 : undefined);
	await sleep(60_000);
	const answered500 = proxy.seen.filter((s) => s.status === 500).length;
	log.windows.push({ name: "n8n's API 500", ...apiDown, note: `${answered500} answered 500` });
	await restarted;
}

/** phpRank answers 503 for 90 s, then no answer for 30 s (the node's Timeout ends those); then 30 s watched for a storm. */
async function outage(api: PhpRankServer, log: FaultLog): Promise<FaultLog['back']> {
	const from = Date.now();
	const isApi = (r: { path: string }) => r.path.includes('/api/');
	const unavailable = {
		type: 'status',
		status: 503,
		body: { message: 'Service Unavailable' },
	} as const;
	api.failNext(unavailable, {
		times: Infinity,
		match: (r) => isApi(r) && Date.now() < from + 90_000,
	});
	api.failNext(
		{ type: 'hang' },
		{ times: Infinity, match: (r) => isApi(r) && Date.now() < from + 120_000 },
	);
	api.resetStats();
	await sleep(120_000);
	const peakDuring = api.stats.peakInFlight;
	const to = Date.now();
	const during = api.requests.filter((r) => r.receivedAt >= from && r.receivedAt < to).length;
	log.windows.push({ name: 'phpRank down 2 min', from, to, note: `${during} requests while down` });
	api.resetStats();
	await sleep(30_000);
	const after = api.requests.filter((q) => q.receivedAt >= to);
	return {
		peakDuring,
		peakAfter: api.stats.peakInFlight,
		busiestSecondAfter: busiestSecond(after),
	};
}

/** The most requests received within one second. */
export const busiestSecond = (requests: Array<{ receivedAt: number }>): number =>
	Math.max(0, ...tally(requests.map((r) => Math.floor(r.receivedAt / 1000))).values());

/** Makes a run's rows look a week old (createdAt - 8 days), so the next run's digest judges its own week. */
export async function ageHistory(agency: Agency): Promise<void> {
	for (const relname of await historyTables(agency.cluster))
		await agency.cluster.postgres.query(
			`UPDATE "${relname}" SET "createdAt" = "createdAt" - interval '8 days'`,
		);
}

/** site → successful analyses (PUT /reports/:id answered 200) in the run. */
export const analysesPerSite = (api: PhpRankServer): Map<string, number> =>
	tally(
		api.requests
			.filter((r) => r.method === 'PUT' && r.status === 200 && /\/reports\/\d+$/.test(r.path))
			.map((r) => api.getReport(Number(r.path.split('/').pop()))?.project ?? '?'),
	);

export interface SiteFacts {
	pages: number;
	analyses: Map<string, number>;
	/** rows written in the run */
	rows: Map<string, number>;
	run: AgencyRun;
}

/** What became of `sites`: audited once/twice/not/partly, rows, executions by status. */
export function outcome(sites: string[], f: SiteFacts): Record<string, string> {
	const count = (pred: (site: string) => boolean) => sites.filter(pred).length;
	const a = (site: string) => f.analyses.get(site) ?? 0;
	const rows = tally(sites.map((site) => f.rows.get(site) ?? 0));
	const execs = tally(f.run.sites.filter((x) => sites.includes(x.site)).map((e) => e.status));
	const partly = sites.filter((s) => a(s) > 0 && a(s) !== f.pages && a(s) < 2 * f.pages);
	return {
		sites: String(sites.length),
		'audited once': String(count((s) => a(s) === f.pages)),
		'twice or more': String(count((s) => a(s) >= 2 * f.pages)),
		'not at all': String(count((s) => a(s) === 0)),
		partly: partly.map((s) => `${s} ${a(s)}`).join(', ') || '0',
		'history rows (rows: sites)': JSON.stringify(Object.fromEntries(rows)),
		'site executions': JSON.stringify(Object.fromEntries(execs)),
	};
}

/** The sites a fault hit: executions open during it (the kill: the killed worker's, not ended). */
export function hitBy(w: FaultWindow, run: AgencyRun): string[] {
	const open = run.sites.filter(
		(e) =>
			+(e.createdAt ?? 0) <= w.to &&
			(!e.stoppedAt || +e.stoppedAt >= w.from) &&
			(!w.held || w.held.has(e.id)),
	);
	return [...new Set(open.map((e) => e.site))].sort();
}

/** The promise's breaches: sites neither audited once nor named as not audited, doubled rows, "fresh" but not audited. */
export function breaches(hosts: string[], f: SiteFacts): Record<string, string[]> {
	const named = new Set(f.run.digest.notAuditedList);
	const a = (site: string) => f.analyses.get(site) ?? 0;
	const r = (site: string) => f.rows.get(site) ?? 0;
	return {
		'neither audited once nor named as not audited': hosts.filter(
			(s) => a(s) !== f.pages && !named.has(s),
		),
		'more than one row': hosts.filter((s) => r(s) > 1),
		'audited, no row': hosts.filter((s) => a(s) >= f.pages && r(s) === 0),
		'no row this run, not named as not audited': hosts.filter((s) => r(s) === 0 && !named.has(s)),
		'named as not audited though it has a row': hosts.filter((s) => r(s) > 0 && named.has(s)),
	};
}
