/*
 * npm run bench:agency [-- --sites 500 --pages 100 --throttle <factor> --concurrency 10]: the agency's weekly
 * audit (examples/agency-weekly-audit.json) on a real queue-mode n8n (main + 2 workers, Redis, PostgreSQL 17),
 * against the bundled phpRank test server with `sites` projects of `pages` reports and its throttle at 60 a
 * minute × the factor (default: the number of sites). Two runs on the same cluster: n8n's default execution
 * data settings, then the workflow's "Save successful production executions" off (as
 * EXECUTIONS_DATA_SAVE_ON_SUCCESS=none, which README's Sizing recommends). Printed per run: requests to
 * phpRank against the floor, requests to n8n's API per site, wall time and time per site, each worker's peak
 * RSS, PostgreSQL growth (execution relations, data-table relations, the database), the digest's time and
 * size, the sites each worker took. Figures from one run on a shared machine, not assertions; a request count
 * off the floor, a site without its row or a digest that misses a site fails the run. With `--faults`
 * (agencyFaults.ts): a clean run, then one with the faults, the throttle 60 × 0.4 × sites unless given.
 */
import { int } from '../benchKit';
import {
	agencyFloor,
	checkAgencyRun,
	startAgency,
	type Agency,
	type AgencyOptions,
	type AgencyRun,
} from './agency';
import * as faults from './agencyFaults';
import { Suite } from './suite';

const suite = new Suite('bench-agency');

function options(argv: string[]): AgencyOptions {
	const get = (name: string, fallback: number): number => {
		const at = argv.indexOf(`--${name}`);
		const value = at >= 0 ? Number(argv[at + 1]) : fallback;
		if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number`);
		return value;
	};
	const sites = get('sites', 500);
	return {
		sites,
		pages: get('pages', 100),
		throttleFactor: get('throttle', argv.includes('--faults') ? Math.ceil(sites * 0.4) : sites),
		concurrency: get('concurrency', 10),
	};
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const byWorker = (figures: Record<string, number>, text: (n: number) => string) =>
	Object.entries(figures)
		.map(([worker, n]) => `${worker} ${text(n)}`)
		.join(', ');

function print(o: AgencyOptions, run: AgencyRun): void {
	const floor = agencyFloor(o);
	const floorTotal = floor.analyses + floor.lists + floor.projectLists;
	const p = run.phpRank;
	console.log(
		`\n${run.label}: dispatcher ${run.status}, ${run.siteExecutions} site executions ${JSON.stringify(run.siteStatuses)}`,
	);
	console.table({
		'phpRank requests': `${int(p.total)} (floor ${int(floorTotal)}, ×${(p.total / floorTotal).toFixed(3)}): ${int(p.analyses)} analyses (floor ${int(floor.analyses)}), ${int(p.lists)} report lists (floor ${int(floor.lists)}), ${int(p.projectLists)} project lists, ${int(p.other)} other, ${int(p.throttled)} answered 429, ${int(p.faulted)} 5xx or no answer`,
		'n8n API requests': `${int(run.n8nApi)}, ${(run.n8nApi / o.sites).toFixed(2)} per site`,
		'wall time': `${s(run.wallMs)}, ${s(run.wallMs / o.sites)} per site (site execution median ${s(run.siteMedianMs)})`,
		'peak RSS': byWorker(run.peakRss, mb),
		'sites taken': byWorker(run.sitesBy, String),
		'PostgreSQL growth': `executions ${mb(run.dbGrowth.executions)} (${kb(run.dbGrowth.executions / o.sites)} per site), data tables ${kb(run.dbGrowth.tables)}, database ${mb(run.dbGrowth.database)}`,
		'stored after the run': `${run.kept.executions} site executions, run data ${mb(run.kept.dataBytes)} (${kb(run.kept.dataBytes / o.sites)} per site)`,
		digest: `${s(run.digest.ms)}, item ${kb(run.digest.bytes)}, summary_html ${kb(run.digest.htmlBytes)}, total_sites ${run.digest.totalSites}, ${run.mails} e-mail(s)`,
		'dispatcher errors': `${run.dispatchErrors}, history_saved false ${run.historyErrors}; digest not_audited ${run.digest.notAudited}`,
	});
}

async function main(): Promise<void> {
	const o = options(process.argv.slice(2));
	suite.section(
		`${o.sites} sites of ${o.pages} pages; phpRank's throttle 60 a minute × ${o.throttleFactor} = ${int(60 * o.throttleFactor)} a minute; 2 workers, concurrency ${o.concurrency}`,
	);
	await suite.api.start();
	const smtp = await suite.smtp();
	const started = Date.now();
	const agency = await startAgency(suite, suite.api, smtp.catcher, smtp.credential, o);
	suite.note(`cluster ready in ${s(Date.now() - started)}`);
	if (process.argv.includes('--faults')) return await faultRuns(o, agency);
	let rows = new Map<string, number>();
	for (const [label, settings] of [
		["n8n's default execution data settings", undefined],
		[
			'successful executions not saved (saveDataSuccessExecution: none)',
			{ saveDataSuccessExecution: 'none' },
		],
	] as const) {
		const run = await agency.run(label, settings);
		rows = await agency.rowsPerSite();
		print(o, run);
		checkAgencyRun(suite.check, o, run);
		suite.note(
			`${run.label}: history rows so far ${[...rows.values()].reduce((a, b) => a + b, 0)}`,
		);
	}
	suite.check(
		'every site has one history row per run',
		agency.hosts.every((h) => rows.get(h) === 2),
		agency.hosts.filter((h) => rows.get(h) !== 2).slice(0, 10),
	);
	suite.note(
		'One machine of 2 cores shared with other jobs: times vary by ±30% between runs; the request counts and bytes do not.',
	);
}

/** The clean run, its rows aged a week, then the run with the faults; the per-fault table and the promise. */
async function faultRuns(o: AgencyOptions, agency: Agency): Promise<void> {
	const api = suite.api;
	api.resetStats();
	const clean = await agency.run('clean run', undefined);
	const cleanPeak = {
		inFlight: api.stats.peakInFlight,
		second: faults.busiestSecond(api.requests),
	};
	print(o, clean);
	checkAgencyRun(suite.check, o, clean);
	const before = await agency.rowsPerSite();
	await faults.ageHistory(agency);
	const log: faults.FaultLog = { windows: [] };
	const run = await agency.run('run with faults', undefined, {
		during: (id) => faults.inject(agency, api, o, id, log),
		deadlineMs: 2 * clean.wallMs + 600_000,
	});
	const after = await agency.rowsPerSite();
	const rows = new Map(agency.hosts.map((h) => [h, (after.get(h) ?? 0) - (before.get(h) ?? 0)]));
	print(o, run);
	const facts = { pages: o.pages, analyses: faults.analysesPerSite(api), rows, run };
	const table: Record<string, Record<string, string>> = {};
	for (const w of log.windows)
		table[w.name] = {
			when: `${s(w.from - run.startedAt)}-${s(w.to - run.startedAt)}`,
			...faults.outcome(faults.hitBy(w, run), facts),
			note: w.note,
		};
	table['whole run'] = { when: s(run.wallMs), ...faults.outcome(agency.hosts, facts), note: '' };
	console.table(table);
	const b = log.back;
	console.table({
		'wall time': `${s(run.wallMs)} against the clean run's ${s(clean.wallMs)} (×${(run.wallMs / clean.wallMs).toFixed(2)})`,
		"phpRank's return": b
			? `peak in flight ${b.peakDuring} while down, ${b.peakAfter} in the 30 s after, busiest second after ${b.busiestSecondAfter} (clean run: peak ${cleanPeak.inFlight}, busiest second ${cleanPeak.second})`
			: 'not reached',
	});
	for (const [what, sites] of Object.entries(faults.breaches(agency.hosts, facts)))
		suite.note(
			`promise: ${what}: ${sites.length}${sites.length ? ` (${sites.slice(0, 12).join(', ')})` : ''}`,
		);
}

suite.run(main);
