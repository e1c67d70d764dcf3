/*
 * npm run demo: the job people bring the node to, with nothing else installed. Starts the bundled
 * phpRank test server and audits a small site twice through n8n-core's real engine, as a weekly
 * workflow would: phpRank → Report → Create or Re-Run over the site's pages, with Confirm Drops and
 * Output: One Item per Site, and Page Groups with their budgets (the money pages must pass every
 * high-importance check). Between the two runs the server is scripted to change two pages (one
 * drops for real, with a high-importance check newly failing; one gets better). It prints the
 * second run's site summary (`summary_text`, what a Slack message would carry) and what each run
 * cost in requests, and exits non-zero when the summary is not what the server did.
 */
import { PhpRankServer, TEST_API_KEY } from '../test/server';
import { engine, runMain } from './benchKit';

const SITE = 'https://shop.example.com';
const PAGES = ['/', '/pricing', '/contact', '/blog', '/blog/first-post', '/about'].map(
	(path) => `${SITE}${path}`,
);

function fail(message: string): never {
	throw new Error(`demo: ${message}`);
}

runMain(async () => {
	const runNode = await engine();
	const server = new PhpRankServer({ throttle: false });
	await server.start();
	try {
		const credential = { baseUrl: server.url, apiKey: TEST_API_KEY };
		let highChecks = '';
		const audit = async () => {
			server.clearRequests();
			const { items, error } = await runNode(
				{
					resource: 'report',
					operation: 'createOrRerun',
					url: '={{ $json.url }}',
					privacy: 1,
					options: { confirmDrops: true },
					output: 'sites',
					siteOptions: { emailHtml: true },
					// Each section of the site held to its own bar: the money pages must pass every
					// high-importance check; the blog may be a little weaker.
					pageGroups: {
						group: [
							{
								name: 'Money pages',
								pattern: '^/(pricing|contact)?$',
								patternType: 'regex',
								budget: { requiredChecks: highChecks, minAverageScore: 80 },
							},
							{ name: 'Blog', pattern: '/blog/**', budget: { minAverageScore: 70 } },
						],
					},
					defaultBudget: { maxBadPages: 0 },
				},
				credential,
				{ items: PAGES.map((url) => ({ url })) },
			);
			if (error) fail(`the audit failed: ${error.message}`);
			const counts = new Map<string, number>();
			for (const { method } of server.requests) counts.set(method, (counts.get(method) ?? 0) + 1);
			return { summary: items[0]?.json ?? fail('no site summary'), counts };
		};
		const cost = (counts: Map<string, number>) =>
			`${counts.get('GET') ?? 0} list read + ${counts.get('POST') ?? 0} creates + ${counts.get('PUT') ?? 0} re-runs`;

		console.log(`phpRank test server: ${server.url}\n`);
		for (const url of PAGES)
			server.setNextAnalysis(url, { score: 85, failed: ['favicon'], others: 'pass' });
		const first = await audit();
		// From the second run on, the money pages must pass every high-importance check.
		const highs = Object.entries(server.listReports()[0].results)
			.filter(([, check]) => check.importance === 'high')
			.map(([name]) => name);
		highChecks = highs.join(', ');
		console.log(
			`Run 1 (the site is new): ${String(first.summary.created)} reports created; requests: ${cost(first.counts)}`,
		);

		// A week later: the pricing page really drops (confirmed when analysed again), the blog gets better.
		const high = highs[0] ?? fail('no high check');
		const drop = { score: 61, failed: [high], others: 'keep' as const };
		server.setNextAnalysis(`${SITE}/pricing`, drop);
		server.setNextAnalysis(`${SITE}/pricing`, drop);
		server.setNextAnalysis(`${SITE}/blog`, { score: 95, passed: ['favicon'], others: 'keep' });
		for (const url of PAGES.filter((page) => !/\/(pricing|blog)$/.test(page)))
			server.setNextAnalysis(url, { score: 85, others: 'keep' });
		const second = await audit();
		console.log(
			`Run 2 (a week later): ${String(second.summary.rerun)} pages re-run, none created; requests: ${cost(second.counts)} (one re-run more: the suspected drop, analysed again and confirmed)\n`,
		);
		console.log('The site summary (summary_text), as a Slack or Teams message would carry it:\n');
		console.log(String(second.summary.summary_text).replace(/^/gm, '  '));
		console.log(
			`\n(summary_html, an e-mail body of ${String(second.summary.summary_html).length.toLocaleString('en-US')} characters, comes with it.)`,
		);

		const { summary, counts } = second;
		if (summary.created !== 0 || summary.rerun !== PAGES.length)
			fail(
				`expected ${PAGES.length} re-runs and no create, got ${String(summary.rerun)} / ${String(summary.created)}`,
			);
		if (summary.worse_pages !== 1 || summary.better_pages !== 1)
			fail(
				`expected 1 worse and 1 better page, got ${String(summary.worse_pages)} / ${String(summary.better_pages)}`,
			);
		if ((counts.get('PUT') ?? 0) !== PAGES.length + 1 || (counts.get('POST') ?? 0) !== 0)
			fail(`unexpected requests: ${cost(counts)}`);
		if (!String(summary.summary_text).includes('shop.example.com/pricing'))
			fail('the summary does not name the page that dropped');
		if (
			JSON.stringify(summary.broken_groups) !== '"Money pages"' ||
			summary.budgets_passed !== false
		)
			fail(`expected the Money pages over budget, got ${JSON.stringify(summary.broken_groups)}`);
		if (
			!String(summary.summary_text).startsWith('shop.example.com: 1 of 3 page groups over budget')
		)
			fail('the summary does not lead with the group over budget');
	} finally {
		await server.stop();
	}
});
