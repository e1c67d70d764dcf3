/*
 * npm run demo: the node doing its job with nothing else installed. Starts the bundled phpRank
 * test server with sample reports, runs a two-node workflow through n8n-core's real engine
 * (phpRank: Create a report → phpRank: Get Many reports whose result is bad) and prints what
 * the nodes returned and what went over the wire.
 */
import '../test/harness/env';

import { makeNode, runWorkflow } from '../test/harness/engine';
import { startSampleServer } from '../test/server/sample';
import { TEST_API_KEY } from '../test/server';

async function main() {
	const server = await startSampleServer({ throttle: false });
	try {
		const credential = { baseUrl: server.url, apiKey: TEST_API_KEY };
		const create = makeNode(
			{ resource: 'report', operation: 'create', url: '={{ $json.url }}', privacy: 0 },
			{ name: 'Create report' },
		);
		const listBad = makeNode(
			{ resource: 'report', operation: 'getAll', returnAll: true, filters: { result: 'bad' } },
			{ name: 'Bad reports' },
		);
		const { run, outputs } = await runWorkflow(
			[create, listBad],
			{ 'Create report': { main: [[{ node: 'Bad reports', type: 'main', index: 0 }]] } },
			credential,
			[{ url: 'https://www.n8n.io/pricing' }],
		);
		if (run.data.resultData.error) throw run.data.resultData.error;

		console.log(`phpRank test server: ${server.url} (30 sample reports)\n`);
		console.log('1. phpRank → Report → Create  (url: https://www.n8n.io/pricing)');
		console.log(JSON.stringify(outputs['Create report'][0].json, null, 2));
		const bad = outputs['Bad reports'];
		console.log(`\n2. phpRank → Report → Get Many  (Result: Bad, Return All): ${bad.length} reports`);
		console.table(
			bad.map(({ json }) => ({
				id: json.id,
				url: json.url,
				score: json.score,
				class: json.result_class,
				'failed high/medium/low': `${String(json.failed_high)}/${String(json.failed_medium)}/${String(json.failed_low)}`,
				'failed (high)': json.failed_high_checks,
			})),
		);
		console.log('\nRequests the server received:');
		for (const request of server.requests) {
			console.log(`  ${request.method} ${request.path}${request.rawQuery ? `?${request.rawQuery}` : ''}${request.rawBody ? `  body: ${request.rawBody}` : ''}`);
		}
	} finally {
		await server.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
