/**
 * What the history e2e suites (history, table-history) share: the site's workflow (Webhook and Manual → Pages →
 * Create or Re-Run, One Item per Site, Retry On Fail), its production and manual runs, the lost answer that makes
 * n8n try the node again.
 */
import type { PhpRankServer } from '../../test/server';
import { callWebhook, json, PHPRANK_CRED } from './checks';
import { runFromTrigger, type N8nSandbox } from './n8n';
import type { RestSession } from './rest';
import type { Suite } from './suite';
import {
	manualTrigger,
	node,
	phpRank,
	webhook,
	workflow,
	type CredentialRef,
	type WorkflowJson,
} from './workflow';

export type Site = Record<string, unknown>;

/** Webhook (answers the site item) and Manual → Pages (the webhook's `urls` or `pages`) → `audit`. */
export function siteWorkflow(o: {
	id?: string;
	name: string;
	hook: string;
	pages: string[];
	audit?: string;
	/** the audit's parameters beside Create or Re-Run of each page, One Item per Site, Simplify off */
	parameters?: Record<string, unknown>;
	/** the phpRank History Store API credential (History Store → Data Table) */
	n8nApi?: CredentialRef;
}): WorkflowJson {
	const audit = o.audit ?? 'Audit';
	const code = `const urls = $input.first().json.body?.urls ?? ${JSON.stringify(o.pages)};
return urls.map((url) => ({ json: { url } }));`;
	const parameters = {
		resource: 'report',
		operation: 'createOrRerun',
		url: '={{ $json.url }}',
		privacy: 1,
		output: 'sites',
		simplify: false,
		...o.parameters,
	};
	const retry = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1000 };
	const nodes = [
		webhook(o.hook, 'lastNode'),
		manualTrigger('Manual'),
		node('Pages', 'n8n-nodes-base.code', { jsCode: code }, { typeVersion: 2 }),
		phpRank(audit, parameters, PHPRANK_CRED, retry),
	];
	if (o.n8nApi) nodes[3].credentials = { phpRankApi: PHPRANK_CRED, phpRankN8nApi: o.n8nApi };
	return workflow(o.id ?? '', o.name, nodes, [
		['Webhook', 'Pages'],
		['Manual', 'Pages'],
		['Pages', audit],
	]);
}

/** A production run through the webhook: the site item it answers ({} on any other answer, noted). */
export async function production(
	suite: Suite,
	baseUrl: string,
	hook: string,
	urls: string[],
): Promise<Site> {
	const res = await callWebhook(`${baseUrl}/webhook/${hook}`, { urls });
	if (res.status !== 200) suite.note(`webhook answered ${res.status}: ${res.body.slice(0, 400)}`);
	return res.status === 200 ? (JSON.parse(res.body) as Site) : {};
}

/** The editor's "Execute workflow" from Manual (mode manual), read from n8n's database: its site item and error. */
export async function manualRun(
	session: RestSession,
	sb: N8nSandbox,
	workflowId: string,
	audit = 'Audit',
) {
	const { started, exec } = await runFromTrigger(session, sb, workflowId, 'Manual');
	const error = exec?.data.resultData?.error;
	return {
		exec,
		site: json(exec?.outputs[audit])[0] ?? {},
		error: exec
			? `${error?.message ?? ''} | ${error?.description ?? ''}`
			: `not started: ${JSON.stringify(started.body).slice(0, 400)}`,
	};
}

/**
 * A second site joins the run: phpRank creates its report but the answer is lost (the connection is reset), so
 * its only page fails, the node fails, and n8n tries it again (Retry On Fail), which finds the report.
 */
export function loseCreateAnswerOnce(api: PhpRankServer, url: string): void {
	api.setNextAnalysis(url, { score: 50, others: 'pass' });
	api.clearRequests();
	api.failNext(
		{ type: 'reset' },
		{
			match: (req) => {
				if (req.method !== 'POST' || !req.form.url?.includes(new URL(url).host)) return false;
				api.addReport({ url });
				return true;
			},
		},
	);
}
