/*
 * npm run bench:groups: Project → Get Health of one site of 10,000 pages, with Page Groups (five
 * groups, overlapping path and regular-expression patterns, every budget rule) beside the same run
 * without them. Run through the real n8n engine against the bundled phpRank test server; both are
 * measured in the same run, rounds alternating, and the medians and their ratio printed: requests
 * to phpRank, wall time, the peak heap above the start. Figures, not assertions (this machine is
 * noisy); a request other than the site's list reads (100 a page, project filter) fails the run.
 */
import type { IDataObject } from 'n8n-workflow';

import { PhpRankServer, TEST_API_KEY } from '../test/server';
import { alternating, engine, medians, probe, runMain } from './benchKit';

const PAGES = Number(process.env.BENCH_PAGES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SITE = 'shop.example.com';
const VARIANTS = ['without groups', 'with groups'] as const;
type Variant = (typeof VARIANTS)[number];

const budget = { minAverageScore: 50, maxBadShare: 20, requiredChecks: 'title:95, favicon' };
const PAGE_GROUPS = {
	group: [
		{ name: 'Ones', pattern: '/page-*1', budget },
		{ name: 'Twos', pattern: '/page-*2', budget: { minHealthScore: 60 } },
		{ name: 'Tens', pattern: '^/page-\\d+0$', patternType: 'regex', budget: { maxBadPages: 10 } },
		{ name: 'First hundred', pattern: '^/page-\\d{1,2}$', patternType: 'regex', budget: {} },
		{ name: 'All pages', pattern: '/**', budget: {} },
	],
};

runMain(async () => {
	const runNode = await engine();
	const phpRank = new PhpRankServer({ throttle: false });
	phpRank.seedReports(PAGES, { hosts: [SITE], uniqueUrls: true });
	await phpRank.start();
	const measure = async (variant: Variant) => {
		phpRank.clearRequests();
		const { result, ms, heapMb } = await probe(() =>
			runNode(
				{
					resource: 'project',
					operation: 'getHealth',
					project: { __rl: true, mode: 'name', value: SITE },
					simplify: false,
					...(variant === 'with groups'
						? { pageGroups: PAGE_GROUPS, defaultBudget: { maxBadShare: 50 } }
						: {}),
				},
				{ baseUrl: phpRank.url, apiKey: TEST_API_KEY },
			),
		);
		if (result.error) throw result.error;
		const site = result.items[0].json as IDataObject;
		if (site.pages !== PAGES) throw new Error(`${variant}: ${String(site.pages)} pages`);
		const counted = ((site.groups ?? []) as IDataObject[]).reduce((n, g) => n + Number(g.pages), 0);
		if (variant === 'with groups' && counted !== PAGES)
			throw new Error(`the groups hold ${counted} pages, not ${PAGES}`);
		// The site's report list alone, with the project filter, 100 a page: nothing else.
		const requests = phpRank.requests.filter((r) => r.path.includes('/api/v1'));
		const lists = requests.filter((r) => r.path === '/api/v1/reports' && r.query.project === SITE);
		if (lists.length !== requests.length || lists.length !== Math.ceil(PAGES / 100))
			throw new Error(`${variant}: ${requests.length} requests, ${lists.length} lists of ${SITE}`);
		return { ms, heapMb, phpRank: requests.length };
	};
	const all = await alternating(ROUNDS, VARIANTS, measure, { warmUp: 'with groups' }).finally(() =>
		phpRank.stop(),
	);
	const [plain, grouped] = VARIANTS.map((variant) => ({
		variant,
		...medians(all[variant], ['phpRank', 'ms', 'heapMb'] as const),
	}));
	console.log(`\nOne site of ${PAGES} pages, Get Health, medians of ${ROUNDS} rounds:`);
	console.table([plain, grouped]);
	console.log(
		`With Page Groups (5 groups and Other) / without: requests ×${(grouped.phpRank / plain.phpRank).toFixed(2)}, time ×${(grouped.ms / plain.ms).toFixed(2)}, peak heap ×${(grouped.heapMb / plain.heapMb).toFixed(2)}`,
	);
});
