/**
 * `npm run test:e2e:agency`: examples/agency-weekly-audit.json at CI size on a queue-mode n8n (main + 2 workers,
 * Redis, PostgreSQL): 20 client sites of 20 pages on the phpRank test server (throttle 60 a minute × 20), the
 * example saved and published as a user would, run once from its Manual trigger (offloaded to a worker). The
 * same set-up and measures as `npm run bench:agency` (scripts/n8n/agency.ts), checked instead of printed: one
 * production execution per site and every one successful, each site's history row written once, the digest
 * counting every site and sent once, both workers taking sites, and phpRank's requests at the floor. Then
 * the next week's run with a worker killed while it holds sites (kill -9): every site audited once in the end, its
 * calls made again by the example, one history row per site and run, the digest naming none as not audited.
 */
import { checkAgencyRun, startAgency, type Agency, type AgencyOptions } from '../agency';
import { waitFor } from '../proc';
import { Fatal } from '../report';
import { startedBy } from '../queue';
import { Suite } from '../suite';

const suite = new Suite('agency', { editor: false });
const { check, section, note } = suite;
/** A dead worker's job is failed once its lock (30 s here, n8n's default 60 s) lapses, as the other worker checks every 10 s (30 s). */
const LOCK = { QUEUE_WORKER_LOCK_DURATION: '30000', QUEUE_WORKER_STALLED_INTERVAL: '10000' };
const SIZE: AgencyOptions = { sites: 20, pages: 20, throttleFactor: 20, env: LOCK };

async function main(): Promise<void> {
	section(
		`the agency's weekly audit: ${SIZE.sites} sites of ${SIZE.pages} pages, queue mode (main + 2 workers)`,
	);
	await suite.api.start();
	const smtp = await suite.smtp();
	const agency = await startAgency(suite, suite.api, smtp.catcher, smtp.credential, SIZE);
	section('one run of the example');
	const run = await agency.run('the weekly run');
	note(
		`wall ${(run.wallMs / 1000).toFixed(1)} s; sites taken ${JSON.stringify(run.sitesBy)}; n8n API requests ${run.n8nApi}; digest ${run.digest.ms} ms, ${run.digest.bytes} bytes`,
	);
	checkAgencyRun(check, SIZE, run);
	check('the digest is sent once', run.mails === 1, run.mails);
	check(
		'both workers took sites',
		Object.values(run.sitesBy).filter((n) => n > 0).length === 2,
		run.sitesBy,
	);
	await killedWorker(agency);
}

/**
 * The next week's run, in which the worker that does not run the dispatcher is killed (SIGKILL, its task runner
 * too) once it holds sites: n8n fails their calls when their lock lapses, Audit again calls them once more, and
 * every site ends with one row of the run (its Run Key), the digest naming none as not audited.
 */
async function killedWorker(agency: Agency): Promise<void> {
	section('a worker killed (kill -9) while it holds sites, in the next run');
	const { api } = suite;
	const { workers } = agency.cluster;
	const ids = (w: (typeof workers)[number]) => startedBy(w).map(Number);
	const last = Math.max(0, ...workers.flatMap(ids));
	const running = agency.run('the run with a worker killed');
	const victim = await waitFor(() => {
		const fresh = workers.map((w) => ids(w).filter((id) => id > last));
		const dispatcher = Math.min(...fresh.flat()); // started first, before any site
		const holder = fresh.findIndex((got) => got.length > 0 && !got.includes(dispatcher));
		return holder >= 0 && api.requests.some((r) => r.method === 'PUT')
			? workers[holder]
			: undefined;
	}, 120_000);
	if (victim) process.kill(-victim.pid, 'SIGKILL');
	const killedAt = api.requests.filter((r) => r.method === 'PUT').length;
	// unref'd: the suite ends when its checks do
	const late = new Promise<never>((_, reject) =>
		setTimeout(() => reject(new Fatal('the run did not end within 8 min')), 480_000).unref(),
	);
	const run = await Promise.race([running, late]);
	const [rows, all] = [await agency.rowsPerSite(`run:${run.id}`), await agency.rowsPerSite()];
	note(
		`killed ${victim?.name} after ${killedAt} analyses; wall ${(run.wallMs / 1000).toFixed(1)} s; site executions ${JSON.stringify(run.siteStatuses)}; calls made again ${run.again.calls}; analyses ${run.phpRank.analyses} for ${SIZE.sites * SIZE.pages} pages`,
	);
	check(
		'a worker holding sites was killed; the dispatcher ended successfully; the calls n8n failed with it were made again, each answered',
		victim !== undefined &&
			run.status === 'success' &&
			run.again.calls === run.dispatchErrors &&
			run.again.calls > 0 &&
			run.again.errors === 0,
		{ status: run.status, errors: run.dispatchErrors, again: run.again },
	);
	check(
		'one successful site execution per site; the lost ones ended too (none left running)',
		run.siteStatuses.success === SIZE.sites && run.siteExecutions === SIZE.sites + run.again.calls,
		run.siteStatuses,
	);
	check(
		"every site has exactly one history row of this run (its Run Key), two in all (the weeks')",
		agency.hosts.every((h) => rows.get(h) === 1 && all.get(h) === 2) && all.size === SIZE.sites,
		{ run: Object.fromEntries(rows), all: Object.fromEntries(all) },
	);
	check(
		'the digest counts every site and names none as not audited; no report created (re-runs only)',
		run.digest.totalSites === SIZE.sites &&
			run.digest.notAudited === 0 &&
			!api.requests.some((r) => r.method === 'POST'),
		run.digest,
	);
}

suite.run(main);
