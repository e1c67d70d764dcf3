import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
	PreSendAction,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../api';
import { isToolRun } from '../transport/n8nInternals';
import { readList } from '../transport/paging';
import { phpRankRequest, timeoutFor } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import { doneBefore, fingerprintOf, itemFailed, recordDone, runOf, type RunState } from '../transport/retries';
import { changesBetween, changesText, type ReportChanges } from './changes';
import { shapeReport, toolReport } from './output';
import { paired } from './record';
import { forTools } from './tool';

/*
 * Report → Create or Re-Run: monitoring a page over time without a new report every run. For each
 * item's URL, the user's report of that URL is re-run (PUT results=1), or, when there is none, a
 * report is created (POST). Never a second report for a URL that has one:
 * - the reports of a site are read once per node run, 100 a page, with phpRank's `project`
 *   filter, and shared by every item of that site (not one search per URL, not the whole account);
 * - items of the same URL share one analysis, and each gets its answer;
 * - with Retry On Fail, what an earlier try did is returned, not done again; a create or re-run
 *   that failed (it may have created the report anyway: a 5xx, a timeout) makes the next try read
 *   the site's reports again, so it re-runs the report instead of creating a second one.
 * Cost: ceil(reports of the site / 100) list requests per site, plus one analysis per URL.
 */

/** How phpRank stores a URL: no scheme, no leading `www.`; compared without a trailing slash, host in lower case. */
export function sameUrlKey(url: string): string {
	const bare = url
		.trim()
		.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
		.replace(/^www\./i, '')
		.replace(/[?#]$/, '')
		.replace(/\/+$/, '');
	const hostEnd = bare.search(/[/?#]/);
	return hostEnd === -1 ? bare.toLowerCase() : bare.slice(0, hostEnd).toLowerCase() + bare.slice(hostEnd);
}

/** phpRank's project of a URL: its host without `www.` (and without a port). */
export function projectOfUrl(url: string): string {
	const key = sameUrlKey(url);
	const host = key.split(/[/?#]/)[0];
	return host.replace(/:\d+$/, '');
}

export type Action = 'created' | 'rerun';

interface Outcome {
	action: Action;
	record: IDataObject;
	changes: ReportChanges | null;
	/** Other reports of the same URL, left as they are. */
	others: number;
}

/** What the items of one node run share across tries: each site's reports, each URL's analysis. */
interface Shared {
	sites: Map<string, Promise<Map<string, IDataObject[]>>>;
	analyses: Map<string, Promise<Outcome>>;
}

const sharedByRun = new WeakMap<RunState, Shared>();

function sharedOf(run: RunState): Shared {
	let shared = sharedByRun.get(run);
	if (!shared) {
		shared = { sites: new Map(), analyses: new Map() };
		sharedByRun.set(run, shared);
	}
	return shared;
}

/** The user's reports of a site, by URL, newest first: one list read per site and node run. */
function reportsOfSite(
	ctx: IExecuteSingleFunctions,
	spec: ResourceSpec,
	run: RunState,
	shared: Shared,
	project: string,
): Promise<Map<string, IDataObject[]>> {
	let site = shared.sites.get(project);
	if (!site) {
		site = readList(ctx, spec, { project, sort_by: 'id', sort: 'desc' }, { perPage: MAX_PAGE_SIZE }, run).then(({ items }) => {
			const byUrl = new Map<string, IDataObject[]>();
			for (const report of items) {
				const key = sameUrlKey(String(report.url ?? ''));
				const reports = byUrl.get(key);
				if (reports) reports.push(report);
				else byUrl.set(key, [report]);
			}
			return byUrl;
		});
		shared.sites.set(project, site);
		site.catch(() => shared.sites.delete(project));
	}
	return site;
}

async function analyse(
	ctx: IExecuteSingleFunctions,
	spec: ResourceSpec,
	run: RunState,
	shared: Shared,
	url: string,
	body: IDataObject,
	timeout: number,
): Promise<Outcome> {
	const project = projectOfUrl(url);
	const reports = (await reportsOfSite(ctx, spec, run, shared, project)).get(sameUrlKey(url)) ?? [];
	const newest = reports.reduce<IDataObject | undefined>((top, report) => (!top || Number(report.id) > Number(top.id) ? report : top), undefined);
	if (newest) {
		const { body: answer } = await phpRankRequest(
			ctx,
			spec,
			{ method: 'PUT', url: `${spec.path}/${encodeURIComponent(String(newest[spec.key]))}`, body: { results: 1 }, timeout },
			'record',
			run,
		);
		const record = answer.data as IDataObject;
		return { action: 'rerun', record, changes: changesBetween(newest, record), others: reports.length - 1 };
	}
	const { body: answer } = await phpRankRequest(ctx, spec, { method: 'POST', url: spec.path, body, timeout }, 'record', run);
	return { action: 'created', record: answer.data as IDataObject, changes: null, others: 0 };
}

/** One output item: the report as the other operations shape it, with what was done and what changed. */
function outputOf(ctx: IExecuteSingleFunctions, outcome: Outcome): IDataObject {
	const { action, record, changes, others } = outcome;
	const simplify = ctx.getNodeParameter('simplify', true) as boolean;
	if (simplify && isToolRun(ctx)) {
		const report = toolReport(record, false);
		return { action, ...report, changes: changes ? changesText(changes, report.score as number | null) : null, other_reports: others };
	}
	return { action, ...shapeReport({ ...record, changes: changes as IDataObject | null }, simplify), other_reports: others };
}

export function createOrRerunStep(spec: ResourceSpec) {
	return async function createOrRerun(
		this: IExecutePaginationFunctions,
		routing: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const options = routing.options as IHttpRequestOptions;
			const body = { ...(options.body as IDataObject) };
			const url = String(body.url);
			const key = sameUrlKey(url);
			const fingerprint = fingerprintOf(['createOrRerun', key]);
			const before = doneBefore(run, this.getItemIndex(), fingerprint);
			if (before) return paired(this, before);

			const shared = sharedOf(run);
			let analysis = shared.analyses.get(key);
			if (!analysis) {
				const chosen = Number(this.getNodeParameter('requestOptions.timeout', 0));
				const timeout = timeoutFor(spec, { method: 'POST', url: spec.path, body }, chosen);
				analysis = analyse(this, spec, run, shared, url, body, timeout);
				shared.analyses.set(key, analysis);
				// A failed analysis may still have created the report: the next try reads the site again.
				analysis.catch(() => {
					shared.analyses.delete(key);
					shared.sites.delete(projectOfUrl(url));
				});
			}
			const outcome = await analysis;
			const items = [{ json: outputOf(this, outcome) }];
			recordDone(run, this.getItemIndex(), fingerprint, items, outcome.action === 'created' ? spec : undefined);
			return paired(this, items);
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}

/** The routing of Create or Re-Run: the input checked like Create's, then the step above. */
export function createOrRerunRoute(spec: ResourceSpec, preSend: PreSendAction[]): INodePropertyRouting {
	return forTools({
		request: { method: 'POST', url: spec.path },
		send: { paginate: true, preSend },
		operations: { pagination: createOrRerunStep(spec) },
	});
}
