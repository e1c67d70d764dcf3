/*
 * npm run bench:digest: Get Health with All Projects, Output → One Digest beside One Item per
 * Project, at an agency's size: 200 projects of 100 reports (20,000) and 200 of 5 (1,000), with
 * four weekly runs per site in the history table for the digest. Run through the real n8n engine
 * against the bundled phpRank test server and the stand-in for n8n's public API; both outputs are
 * measured in the same run, rounds alternating, and the medians and their ratio printed: requests to
 * phpRank and to n8n, wall time, the peak heap above the start, and the output's size. Figures, not
 * assertions (this machine is noisy); a request count off the floor fails the run.
 */
import type { IDataObject } from 'n8n-workflow';

import { HISTORY_COLUMNS } from '../nodes/PhpRank/history/model';
import { PhpRankServer, TEST_API_KEY } from '../test/server';
import { startN8nApi } from '../test/server/n8nApi';
import { alternating, engine, medians, probe, runMain } from './benchKit';

const PROJECTS = 200;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const N8N_KEY = 'bench-key';
const TABLE = 'bench digest history';
const DAY = 24 * 3600 * 1000;
const OUTPUTS = ['projects', 'digest'] as const;
type Output = (typeof OUTPUTS)[number];
const MEASURES = ['phpRank', 'n8n', 'ms', 'heapMb', 'bytes'] as const;

const hosts = Array.from({ length: PROJECTS }, (_, i) => `client-${i}.example.com`);

async function account(reportsPerProject: number) {
	const phpRank = new PhpRankServer({ throttle: false });
	phpRank.seedReports(PROJECTS * reportsPerProject, {
		hosts,
		uniqueUrls: true,
		startDate: new Date(Date.now() - 30 * DAY),
	});
	await phpRank.start();
	const n8n = await startN8nApi({ apiKey: N8N_KEY });
	const table = n8n.tables.create(TABLE, [...HISTORY_COLUMNS]);
	n8n.tables.seed(
		table.id,
		hosts.flatMap((site, index) =>
			[4, 3, 2, 1].map((weeks) => ({
				site,
				run_date: new Date(Date.now() - weeks * 7 * DAY).toISOString(),
				average_score: 50 + ((index * 7 + weeks) % 40),
				health_score: 50,
				pages: reportsPerProject,
				good_pages: 0,
				decent_pages: reportsPerProject,
				bad_pages: 0,
				failing_checks: 'title (3 pages), favicon (1 page)',
				execution_id: `${index}-${weeks}`,
				workflow_id: 'bench',
			})),
		),
	);
	return { phpRank, n8n };
}

async function size(runNode: Awaited<ReturnType<typeof engine>>, reportsPerProject: number) {
	const { phpRank, n8n } = await account(reportsPerProject);
	const floor = Math.ceil((PROJECTS * reportsPerProject) / 100);
	const measure = async (output: Output): Promise<Record<(typeof MEASURES)[number], number>> => {
		phpRank.clearRequests();
		n8n.requests.length = 0;
		const { result, ms, heapMb } = await probe(() =>
			runNode(
				{
					resource: 'project',
					operation: 'getHealth',
					allProjects: true,
					output,
					simplify: false,
					...(output === 'digest'
						? {
								historyStore: 'dataTable',
								historyTable: { __rl: true, mode: 'name', value: TABLE },
								siteOptions: { emailHtml: true },
							}
						: {}),
				},
				{ baseUrl: phpRank.url, apiKey: TEST_API_KEY },
				{ execution: { n8nApi: { baseUrl: n8n.url, apiKey: N8N_KEY } } },
			),
		);
		if (result.error) throw result.error;
		const items = result.items.map(({ json }) => json as IDataObject);
		const sites = output === 'digest' ? (items[0].sites as unknown[]).length : items.length;
		if (sites !== PROJECTS) throw new Error(`${output}: ${sites} sites`);
		const requests = phpRank.requests.filter((r) => r.path.includes('/api/v1')).length;
		if (requests !== floor)
			throw new Error(`${output}: ${requests} phpRank requests, the floor is ${floor}`);
		const bytes = JSON.stringify(items).length;
		return { ms, heapMb, phpRank: requests, n8n: n8n.requests.length, bytes };
	};
	const all = await alternating(ROUNDS, OUTPUTS, measure, { warmUp: 'digest' }).finally(() =>
		Promise.all([phpRank.stop(), n8n.close()]),
	);
	const [projects, digest] = OUTPUTS.map((output) => ({
		output,
		...medians(all[output], MEASURES),
	}));
	console.log(
		`\n${PROJECTS} projects of ${reportsPerProject} reports (${PROJECTS * reportsPerProject}), medians of ${ROUNDS} rounds:`,
	);
	console.table([projects, digest]);
	console.log(
		`One Digest / One Item per Project: time ×${(digest.ms / projects.ms).toFixed(2)}, peak heap ×${(digest.heapMb / projects.heapMb).toFixed(2)}, output ×${(digest.bytes / projects.bytes).toFixed(3)}`,
	);
}

runMain(async () => {
	const runNode = await engine();
	await size(runNode, 100);
	await size(runNode, 5);
});
