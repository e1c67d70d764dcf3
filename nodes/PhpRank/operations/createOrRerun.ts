import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
	PreSendAction,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../api';
import { readList } from '../transport/paging';
import { phpRankRequest, recordPath } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import { doneBefore, fingerprintOf, itemFailed, recordDone, type Run, runOf } from '../transport/run';
import { reportOutput } from './output';
import { changesBetween, type ReportChanges } from './report';
import { operationRouting, paired } from './routes';

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
 * The record's URL field is the spec's `createdFrom`, its ID the spec's `key`.
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

const siteKey = (project: string) => `createOrRerun site ${project}`;

/** The user's reports of a site, by URL, newest first: one list read per site and node run, shared by its items. */
function reportsOfSite(ctx: IExecutePaginationFunctions, spec: ResourceSpec, run: Run, project: string): Promise<Map<string, IDataObject[]>> {
	return run.once(siteKey(project), async () => {
		const { items } = await readList(ctx, spec, { project, ...spec.newestFirst }, { perPage: MAX_PAGE_SIZE }, run);
		const byUrl = new Map<string, IDataObject[]>();
		for (const report of items) {
			const key = sameUrlKey(String(report[spec.createdFrom ?? 'url'] ?? ''));
			const reports = byUrl.get(key);
			if (reports) reports.push(report);
			else byUrl.set(key, [report]);
		}
		return byUrl;
	});
}

async function analyse(ctx: IExecutePaginationFunctions, spec: ResourceSpec, run: Run, url: string, body: IDataObject): Promise<Outcome> {
	const reports = (await reportsOfSite(ctx, spec, run, projectOfUrl(url))).get(sameUrlKey(url)) ?? [];
	const newest = reports.reduce<IDataObject | undefined>((top, report) => (!top || Number(report[spec.key]) > Number(top[spec.key]) ? report : top), undefined);
	if (newest) {
		const request = { method: 'PUT' as const, url: recordPath(spec, newest[spec.key]), body: { results: 1 } };
		const { body: answer } = await phpRankRequest(ctx, spec, request, 'record', run);
		const record = answer.data as IDataObject;
		return { action: 'rerun', record, changes: changesBetween(newest, record), others: reports.length - 1 };
	}
	const { body: answer } = await phpRankRequest(ctx, spec, { method: 'POST', url: spec.path, body }, 'record', run);
	return { action: 'created', record: answer.data as IDataObject, changes: null, others: 0 };
}

export function createOrRerunStep(spec: ResourceSpec) {
	return async function createOrRerun(
		this: IExecutePaginationFunctions,
		routing: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const run = runOf(this);
		try {
			const body = { ...((routing.options as IHttpRequestOptions).body as IDataObject) };
			const url = String(body[spec.createdFrom ?? 'url']);
			const key = sameUrlKey(url);
			const fingerprint = fingerprintOf(['createOrRerun', key]);
			const before = doneBefore(run, this.getItemIndex(), fingerprint);
			if (before) return paired(this, before);

			const analysis = run.once(`createOrRerun analysis ${key}`, () => analyse(this, spec, run, url, body));
			// A failed analysis may still have created the report: the next try reads the site again.
			analysis.catch(() => run.forget(siteKey(projectOfUrl(url))));
			const { action, record, changes, others } = await analysis;
			const items = [{ json: { action, ...reportOutput(this, record, changes), other_reports: others } }];
			recordDone(run, this.getItemIndex(), fingerprint, items, action === 'created' ? spec : undefined);
			return paired(this, items);
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}

/** The routing of Create or Re-Run: the input checked like Create's, then the step above. */
export function createOrRerunRoute(spec: ResourceSpec, preSend: PreSendAction[]): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'POST', url: spec.path },
		send: { paginate: true, preSend },
		operations: { pagination: createOrRerunStep(spec) },
	});
}
