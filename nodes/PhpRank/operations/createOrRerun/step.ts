import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
	PreSendAction,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../api';
import { classify, projectOfUrl, type ReportChanges, sameUrlKey } from '../../report';
import { readList } from '../../transport/paging';
import {
	type Caller,
	callerOf,
	phpRankRequest,
	recordLinks,
	recordPath,
} from '../../transport/request';
import type { ResourceSpec } from '../../transport/resource';
import {
	doneBefore,
	fingerprintOf,
	itemFailed,
	recordDone,
	type Run,
	runOf,
} from '../../transport/run';
import { changesBetween } from '../changes';
import { outputChoice } from '../reportItem';
import { operationRouting, paired } from '../routes';
import { checkRerunOptions, confirmDropPoints, reuseHours } from './checks';
import { prepareSiteHistory } from '../history/keep';
import { checkHistoryOptions } from './historySettings';
import { type Outcome, pageItem, siteItems } from './items';
import { pageGroupSettings } from '../site/pageGroups';

/*
 * Report → Create or Re-Run: for each item's URL, the user's report of it is re-run (PUT
 * results=1), or created (POST) when there is none: never a second report of a URL. A site's
 * reports are read once per node run (`project` filter, 100 a page) and shared by its items; items
 * of one URL share one analysis; with Retry On Fail, what an earlier try did is returned, and a
 * failed analysis makes the next try read the site again. Cost: ceil(reports of the site / 100)
 * list requests per site, plus one analysis per URL (none for a report analysed within Reuse Recent
 * Analysis's hours: it is returned as it is). ARCHITECTURE.md tells the rest.
 */

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

/** An item of the run, as it sends requests: the resource is the run's. */
type ItemCaller = Caller<IExecutePaginationFunctions> & { run: Run };

/** The user's reports of a site, by URL, newest first: one list read per site and node run, shared by its items. */
function reportsOfSite(caller: ItemCaller, project: string): Promise<Map<string, IDataObject[]>> {
	const { run, spec } = caller;
	return run.once(siteKey(project), async () => {
		const { items } = await readList(
			caller,
			{ project, ...spec.newestFirst },
			{ perPage: MAX_PAGE_SIZE },
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

/** Reuse Recent Analysis: whether a report was analysed less than `hours` ago (never when its date is unknown). */
function analysedWithin(report: IDataObject, hours: number): boolean {
	const at = Date.parse(String(report.generated_at ?? ''));
	return hours > 0 && Number.isFinite(at) && Date.now() - at < hours * 3_600_000;
}

async function analyse(
	caller: ItemCaller,
	url: string,
	body: IDataObject,
	{ confirmPoints, reuseHours }: { confirmPoints: number | undefined; reuseHours: number },
): Promise<Outcome> {
	const { spec } = caller;
	const reports = (await reportsOfSite(caller, projectOfUrl(url))).get(sameUrlKey(url)) ?? [];
	const newest = reports.reduce<IDataObject | undefined>(
		(top, report) => (!top || Number(report[spec.key]) > Number(top[spec.key]) ? report : top),
		undefined,
	);
	if (newest && analysedWithin(newest, reuseHours))
		return { action: 'reused', record: newest, changes: null, others: reports.length - 1 };
	if (newest) {
		const request = {
			method: 'PUT' as const,
			url: recordPath(spec, newest[spec.key]),
			body: { results: 1 },
		};
		const rerun = async () =>
			(await phpRankRequest(caller, request, 'record')).body.data as IDataObject;
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
		caller,
		{ method: 'POST', url: spec.path, body },
		'record',
	);
	return { action: 'created', record: answer.data as IDataObject, changes: null, others: 0 };
}

async function createOrRerun(
	this: IExecutePaginationFunctions,
	routing: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const run = runOf(this);
	const caller = callerOf(this, run);
	const { spec } = caller;
	try {
		const body = { ...((routing.options as IHttpRequestOptions).body as IDataObject) };
		const url = String(body[spec.createdFrom ?? 'url']);
		const key = sameUrlKey(url);
		const bySite = this.getNodeParameter('output', 'pages') === 'sites';
		const fingerprint = fingerprintOf(['createOrRerun', key]);
		const before = bySite ? undefined : doneBefore(run, this.getItemIndex(), fingerprint);
		if (before) return paired(this, before);

		// An item that fails before it joins its site (On Error → Continue) is not waited for.
		const leftOut = (error: unknown) => {
			run.itemLeftOut(this.getItemIndex());
			return Promise.reject(error);
		};
		// History Store → Data Table: the sites' rows read before any phpRank request.
		if (bySite) await prepareSiteHistory(this, run, projectOfUrl(url)).catch(leftOut);
		const confirmPoints = confirmDropPoints(this);
		const analysis = run.once(`createOrRerun analysis ${key}`, () =>
			analyse(caller, url, body, { confirmPoints, reuseHours: reuseHours(this) }),
		);
		// A failed analysis may still have created the report: the next try reads the site again.
		analysis.catch(() => run.forget(siteKey(projectOfUrl(url))));
		if (bySite) return await siteItems(caller, url, analysis).catch(leftOut);
		const outcome = await analysis;
		const choice = outputChoice(this, await recordLinks(caller));
		const { groups } = pageGroupSettings(this);
		const items = [{ json: pageItem(choice, outcome, confirmPoints, groups) }];
		recordDone(
			run,
			this.getItemIndex(),
			fingerprint,
			items,
			outcome.action === 'created' ? spec : undefined,
		);
		return paired(this, items);
	} catch (error) {
		return await itemFailed(this, run, error);
	}
}

/** The routing of Create or Re-Run: the input checked like Create's, then the step above. */
export function createOrRerunRoute(
	spec: ResourceSpec,
	preSend: PreSendAction[],
): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'POST', url: spec.path },
		send: { paginate: true, preSend: [...preSend, checkRerunOptions, checkHistoryOptions] },
		operations: { pagination: createOrRerun },
	});
}
