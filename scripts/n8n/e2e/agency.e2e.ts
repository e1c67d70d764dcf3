/**
 * `npm run test:e2e:agency`: examples/agency-weekly-audit.json at CI size on a queue-mode n8n (main + 2 workers,
 * Redis, PostgreSQL): 20 client sites of 20 pages on the phpRank test server (throttle 60 a minute × 20), the
 * example saved and published as a user would, run once from its Manual trigger (offloaded to a worker). The
 * same set-up and measures as `npm run bench:agency` (scripts/n8n/agency.ts), checked instead of printed: one
 * production execution per site and every one successful, each site's history row written once, the digest
 * counting every site and sent once, both workers taking sites, and phpRank's requests at the floor.
 */
import { checkAgencyRun, startAgency, type AgencyOptions } from '../agency';
import { Suite } from '../suite';

const suite = new Suite('agency');
const { check, section, note } = suite;
const SIZE: AgencyOptions = { sites: 20, pages: 20, throttleFactor: 20 };

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
	const rows = await agency.rowsPerSite();
	check(
		"every site's history row written once",
		rows.size === SIZE.sites && agency.hosts.every((h) => rows.get(h) === 1),
		Object.fromEntries(rows),
	);
	check('the digest is sent once', run.mails === 1, run.mails);
	check(
		'both workers took sites',
		Object.values(run.sitesBy).filter((n) => n > 0).length === 2,
		run.sitesBy,
	);
}

suite.run(main);
