import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
	PreSendAction,
} from 'n8n-workflow';

import { NodeApiError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../api';
import { connectionOf, instanceUrl } from '../transport/connection';
import { inputItemCount } from '../transport/n8nInternals';
import { readList } from '../transport/paging';
import { phpRankRequest, recordPath } from '../transport/request';
import type { ResourceSpec } from '../transport/resource';
import {
	doneBefore,
	fingerprintOf,
	itemFailed,
	recordDone,
	type Run,
	runOf,
} from '../transport/run';
import { checkRerunOptions, confirmDropPoints, siteSettings } from './input';
import { changesBetween } from './changes';
import { outputChoice, reportOutput } from './output';
import { classify, projectOfUrl, type ReportChanges, sameUrlKey } from '../report';
import { operationRouting, paired } from './routes';
import { type RunPage, siteSummary } from './site';
import { siteHistoryOutput } from '../history/output';
import { checkHistoryOptions, historySettings, siteHistory } from '../history/settings';

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
 *
 * Output: One Item per Site gathers the run's items (`Run.gather`) and answers one item per site,
 * paired to that site's input items, with its summary (operations/site.ts), from what the run
 * already has: no request more. A page phpRank cannot analyse (422, 5xx, a timeout) is named in
 * the summary's `failed_pages` instead of failing the audit; only a site of which no page could be
 * analysed fails, with the first page's error.
 */

export type Action = 'created' | 'rerun';

interface Outcome {
	action: Action;
	record: IDataObject;
	changes: ReportChanges | null;
	/** Other reports of the same URL, left as they are. */
	others: number;
	/** Confirm Drops: a suspected drop analysed once more; whether it held, and the first re-run's score. */
	confirmation?: { confirmed: boolean; first_score: number | null };
}

/**
 * Confirm Drops. phpRank's load-time and page-size checks vary from one analysis to the next, so a
 * drop is sometimes no change at all. A re-run whose score fell by at least `points` (any fall when
 * 0), or in which a high-importance check newly failed, is suspected; the page is analysed once
 * more right away (one request more, for suspected drops only), and the drop is confirmed when it
 * holds in that second analysis, measured against the analysis before the first.
 */
function fell(changes: ReportChanges, points: number): boolean {
	return (
		changes.scoreDelta !== null &&
		(points > 0 ? changes.scoreDelta <= -points : changes.scoreDelta < 0)
	);
}

const newlyFailedHigh = (changes: ReportChanges) =>
	changes.failed.filter(({ importance }) => importance === 'high').map(({ check }) => check);

const siteKey = (project: string) => `createOrRerun site ${project}`;

/** The user's reports of a site, by URL, newest first: one list read per site and node run, shared by its items. */
function reportsOfSite(
	ctx: IExecutePaginationFunctions,
	spec: ResourceSpec,
	run: Run,
	project: string,
): Promise<Map<string, IDataObject[]>> {
	return run.once(siteKey(project), async () => {
		const { items } = await readList(
			ctx,
			spec,
			{ project, ...spec.newestFirst },
			{ perPage: MAX_PAGE_SIZE },
			run,
		);
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

async function analyse(
	ctx: IExecutePaginationFunctions,
	spec: ResourceSpec,
	run: Run,
	url: string,
	body: IDataObject,
	confirmPoints: number | undefined,
): Promise<Outcome> {
	const reports =
		(await reportsOfSite(ctx, spec, run, projectOfUrl(url))).get(sameUrlKey(url)) ?? [];
	const newest = reports.reduce<IDataObject | undefined>(
		(top, report) => (!top || Number(report[spec.key]) > Number(top[spec.key]) ? report : top),
		undefined,
	);
	if (newest) {
		const request = {
			method: 'PUT' as const,
			url: recordPath(spec, newest[spec.key]),
			body: { results: 1 },
		};
		const rerun = async () =>
			(await phpRankRequest(ctx, spec, request, 'record', run)).body.data as IDataObject;
		const first = await rerun();
		const changes = changesBetween(newest, first);
		const others = reports.length - 1;
		const failedHigh = newlyFailedHigh(changes);
		if (confirmPoints === undefined || !(fell(changes, confirmPoints) || failedHigh.length > 0))
			return { action: 'rerun', record: first, changes, others };
		const second = await rerun();
		const confirmedChanges = changesBetween(newest, second);
		// The drop holds: it fell again against the analysis before the first, or a check that newly failed fails still.
		const held =
			(fell(changes, confirmPoints) && fell(confirmedChanges, confirmPoints)) ||
			failedHigh.some((check) => newlyFailedHigh(confirmedChanges).includes(check));
		return {
			action: 'rerun',
			record: second,
			changes: confirmedChanges,
			others,
			confirmation: { confirmed: held, first_score: classify(first.result).score },
		};
	}
	const { body: answer } = await phpRankRequest(
		ctx,
		spec,
		{ method: 'POST', url: spec.path, body },
		'record',
		run,
	);
	return { action: 'created', record: answer.data as IDataObject, changes: null, others: 0 };
}

/** Whether an analysis failed for the page alone (phpRank could not fetch or analyse it), not for the run. */
function isPageFailure(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	const status = String(error.httpCode ?? '');
	return (
		status === '422' ||
		status.startsWith('5') ||
		(status === 'none' && error.failure?.cause === 'temporarily-unavailable')
	);
}

interface GatheredPage {
	project: string;
	page: RunPage;
	error?: NodeApiError;
}

/** One Item per Site: the item's page joins the run's; the first item of each site answers for it. */
async function siteItems(
	ctx: IExecutePaginationFunctions,
	spec: ResourceSpec,
	run: Run,
	url: string,
	analysis: Promise<Outcome>,
): Promise<INodeExecutionData[]> {
	const item = ctx.getItemIndex();
	const project = projectOfUrl(url);
	const gathered: GatheredPage = await analysis.then(
		({ action, record, changes, confirmation }) => {
			// Named if the run stops (On Error → Stop), as Create's reports are.
			if (action === 'created')
				recordDone(
					run,
					item,
					fingerprintOf(['createOrRerun', sameUrlKey(url)]),
					[{ json: record }],
					spec,
				);
			return {
				project,
				page: { url, action, record, changes, confirmed: confirmation?.confirmed },
			};
		},
		(error: unknown) => {
			if (!isPageFailure(error)) return Promise.reject(error);
			return { project, page: { url, failure: error.message }, error };
		},
	);
	const all = await run.gather('createOrRerun sites', item, gathered, inputItemCount(ctx));
	const mine = [...all]
		.filter(([, { project: site }]) => site === project)
		.sort(([a], [b]) => a - b);
	if (mine[0][0] !== item) return [];
	// Items of the same URL share its analysis: the site counts it once.
	const pages = [...new Map(mine.map(([, { page }]) => [sameUrlKey(page.url), page])).values()];
	if (pages.every((page) => page.failure !== undefined)) throw mine[0][1].error!;
	const instance = instanceUrl(await connectionOf(ctx));
	const { worstPages, minChange } = siteSettings(ctx);
	const summary = siteSummary(project, pages, {
		worstPages,
		minChange,
		link: (id) => `${instance}${recordPath(spec, id)}`,
	});
	const simplify = ctx.getNodeParameter('simplify', true) as boolean;
	const { length, branding } = historySettings(ctx);
	const history = siteHistory(ctx, summary, length);
	return [
		{
			json: siteHistoryOutput(summary, history, simplify, branding),
			pairedItem: mine.map(([index]) => ({ item: index })),
		},
	];
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
			const bySite = this.getNodeParameter('output', 'pages') === 'sites';
			const fingerprint = fingerprintOf(['createOrRerun', key]);
			const before = bySite ? undefined : doneBefore(run, this.getItemIndex(), fingerprint);
			if (before) return paired(this, before);

			const confirmPoints = confirmDropPoints(this);
			const analysis = run.once(`createOrRerun analysis ${key}`, () =>
				analyse(this, spec, run, url, body, confirmPoints),
			);
			// A failed analysis may still have created the report: the next try reads the site again.
			analysis.catch(() => run.forget(siteKey(projectOfUrl(url))));
			// An item that fails before it joins its site (On Error → Continue) is not waited for.
			if (bySite)
				return await siteItems(this, spec, run, url, analysis).catch((error: unknown) => {
					run.itemLeftOut(this.getItemIndex());
					return Promise.reject(error);
				});
			const { action, record, changes, others, confirmation } = await analysis;
			const confirmed =
				confirmPoints === undefined
					? {}
					: {
							confirmed: confirmation?.confirmed ?? null,
							first_score: confirmation?.first_score ?? null,
						};
			const items = [
				{
					json: {
						action,
						...reportOutput(outputChoice(this), record, changes, { flat: true }),
						other_reports: others,
						...confirmed,
					},
				},
			];
			recordDone(
				run,
				this.getItemIndex(),
				fingerprint,
				items,
				action === 'created' ? spec : undefined,
			);
			return paired(this, items);
		} catch (error) {
			return await itemFailed(this, run, error);
		}
	};
}

/** The routing of Create or Re-Run: the input checked like Create's, then the step above. */
export function createOrRerunRoute(
	spec: ResourceSpec,
	preSend: PreSendAction[],
): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'POST', url: spec.path },
		send: { paginate: true, preSend: [...preSend, checkRerunOptions, checkHistoryOptions] },
		operations: { pagination: createOrRerunStep(spec) },
	});
}
