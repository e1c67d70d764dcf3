/**
 * Issue 35: History Store → Data Table on the n8n under test, through that n8n's own public API (a key made
 * as Settings → n8n API makes it, a phpRankN8nApi credential at the n8n's loopback address). On an n8n older
 * than 2.7 (no data-table API: the e2e's 2.0.0) a Create or Re-Run must fail before any phpRank request with
 * the node's plain message; on a newer one (2.41.1) the same run gets past the table and audits.
 * n8n must run with N8N_PUBLIC_API_DISABLED=false (PUBLIC_API_ON).
 */
import type { PhpRankServer } from '../../test/server';
import { createApiKey } from './apiKey';
import { describeRequests, json } from './checks';
import { n8nOlderThan, runFromTrigger, type N8nServer, type RestSession } from './n8n';
import type { N8nSandbox } from './sandbox';
import { saveWorkflow } from './rest';
import type { Suite } from './suite';
import { manualTrigger, phpRank, workflow, type CredentialRef } from './workflow';

/** The first n8n whose public API serves data tables (NOTES.md, "The public API's data tables"). */
const FIRST_WITH_TABLES: [number, number] = [2, 7];
/** A scope every n8n 2.x grants an owner's key (2.0.0 has no dataTable:* scopes). */
const OLD_N8N_SCOPES = ['workflow:read'];
const TABLE = 'x';

export interface HistoryTableSetup {
	sb: N8nSandbox;
	n8n: N8nServer;
	session: RestSession;
	api: PhpRankServer;
	/** the phpRank credential the run uses */
	phpRank: CredentialRef;
}

/** The section: Create or Re-Run (One Item per Site) with History Store → Data Table, a manual run. */
export async function historyTableOnThisN8n(suite: Suite, o: HistoryTableSetup): Promise<void> {
	const { check, note, section } = suite;
	const version = o.sb.runtime.n8nVersion;
	const hasTables = !n8nOlderThan(o.sb.runtime, ...FIRST_WITH_TABLES);
	section(
		`History Store → Data Table on n8n ${version} (${hasTables ? 'has' : 'has no'} data-table API): a manual Create or Re-Run through its own public API`,
	);
	const key = await apiKey(suite, o.session, hasTables);
	const answer = await fetch(
		`${o.n8n.baseUrl}/api/v1/data-tables?filter=${encodeURIComponent(JSON.stringify({ name: TABLE }))}`,
		{ headers: { 'X-N8N-API-KEY': key, accept: 'application/json' } },
	);
	const said = `${answer.status} ${answer.headers.get('content-type') ?? '-'} ${await answer.text()}`;
	note(`n8n ${version} answers GET /api/v1/data-tables with the key: ${said}`);
	const cred = await o.session.createCredential({
		name: 'phpRank History Store API (e2e)',
		type: 'phpRankN8nApi',
		data: { baseUrl: o.n8n.baseUrl, apiKey: key },
	});
	const wf = workflow(
		'',
		'e2e: History Store → Data Table',
		[
			manualTrigger('Manual'),
			phpRank(
				'Audit',
				{
					resource: 'report',
					operation: 'createOrRerun',
					url: 'https://history-table.example.net/',
					privacy: 1,
					output: 'sites',
					historyStore: 'dataTable',
					historyTable: { __rl: true, mode: 'name', value: TABLE },
				},
				o.phpRank,
			),
		],
		[['Manual', 'Audit']],
	);
	wf.nodes[1].credentials = {
		phpRankApi: o.phpRank,
		phpRankN8nApi: { id: cred.id, name: cred.name },
	};
	o.api.clearRequests();
	const exec = await manualRun(o, wf);
	const error = exec?.data.resultData?.error;
	const phpRankRequests = o.api.requests.length;
	note(`the run: ${exec?.status ?? 'not started'}; error: ${error?.message ?? '-'}`);
	if (!hasTables) {
		const expected = `This n8n has no data-table API at ${o.n8n.baseUrl}/api/v1/data-tables (HTTP 404)`;
		check(
			`the run fails before any phpRank request with "${expected.replace(o.n8n.baseUrl, '<n8n>')}…", naming the first n8n with one (2.7)`,
			exec?.status === 'error' &&
				error?.message?.startsWith(expected) &&
				String(error.description).includes('from version 2.7 on') &&
				phpRankRequests === 0,
			{ status: exec?.status, error, phpRank: describeRequests(o.api.requests) },
		);
		note(`its description: ${String(error?.description)}`);
		return;
	}
	const site = json(exec?.outputs.Audit)[0] ?? {};
	check(
		'the run gets past the table and audits: success, the site item with history_saved false (a manual run), phpRank asked',
		exec?.status === 'success' && site.history_saved === false && phpRankRequests > 0,
		{ status: exec?.status, error, site, phpRank: describeRequests(o.api.requests) },
	);
}

/**
 * A key with the data-table scopes where n8n has them; on an older n8n the answer to that request is printed
 * and a key with a scope it knows is made instead (the node's first request fails before any scope check).
 */
async function apiKey(suite: Suite, session: RestSession, hasTables: boolean): Promise<string> {
	if (hasTables) return await createApiKey(session);
	const refused = await createApiKey(session).then(
		() => 'made',
		(e: Error) => e.message,
	);
	suite.note(`POST /rest/api-keys with the data-table scopes: ${refused}`);
	return await createApiKey(session, { label: 'phprank e2e (old n8n)', scopes: OLD_N8N_SCOPES });
}

/** The editor's "Execute workflow" of a workflow saved by REST (n8n 2.0 runs only the one sent along). */
async function manualRun(o: HistoryTableSetup, wf: ReturnType<typeof workflow>) {
	const { id } = await saveWorkflow(o.session, wf);
	const { started, executionId, exec } = await runFromTrigger(o.session, o.sb, id, 'Manual', {
		workflowData: { ...wf, id },
	});
	if (!executionId)
		throw new Error(`manual run not started: ${started.status} ${JSON.stringify(started.body)}`);
	return exec;
}
