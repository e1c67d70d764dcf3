import type { IDataObject, IExecutePaginationFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../api';
import { classify, projectOfUrl, type ReportChanges, sameUrlKey } from '../report';
import { readList } from '../transport/paging';
import { type Caller, phpRankRequest, recordPath } from '../transport/request';
import type { Run } from '../transport/run';
import { changesBetween } from './changes';

/*
 * A URL's analysis, as Create or Re-Run and Compare With Competitors make it: the user's report of
 * the URL re-run (PUT results=1), or created (POST) when there is none: never a second report of a
 * URL. A site's reports are read once per node run (`project` filter, 100 a page) and shared by its
 * items; items of one URL share one analysis. Cost: ceil(reports of the site / 100) list requests
 * per site, plus one analysis per URL (none for a report analysed within Reuse Recent Analysis's
 * hours: it is returned as it is).
 */

export type Action = 'created' | 'rerun' | 'reused';

/** What the step did for one URL. */
export interface Outcome {
	action: Action;
	record: IDataObject;
	changes: ReportChanges | null;
	/** Other reports of the same URL, left as they are. */
	others: number;
	/** Confirm Drops: a suspected drop analysed once more; whether it held, and the first re-run's score. */
	confirmation?: { confirmed: boolean; first_score: number | null };
}

/** Whether an analysis failed for the page alone (phpRank could not fetch or analyse it), not for the run. */
export function isPageFailure(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	const status = String(error.httpCode ?? '');
	return (
		status === '422' ||
		status.startsWith('5') ||
		(status === 'none' && error.failure?.cause === 'temporarily-unavailable')
	);
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

/** An item of the run, as it sends requests: the resource is the run's. */
export type ItemCaller = Caller<IExecutePaginationFunctions> & { run: Run };

/** The user's reports of a site, by URL, newest first: one list read per site and node run, shared by its items. */
export function reportsOfSite(
	caller: ItemCaller,
	project: string,
): Promise<Map<string, IDataObject[]>> {
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

/**
 * The newest report of each page of a site other than `except` (URL keys), as the run's list read of
 * the site returned it: no request more when the run's analyses already read the site.
 */
export async function otherPagesOfSite(
	caller: ItemCaller,
	project: string,
	except: ReadonlySet<string>,
): Promise<IDataObject[]> {
	const byUrl = await reportsOfSite(caller, project);
	return [...byUrl].filter(([key]) => !except.has(key)).map(([, reports]) => reports[0]);
}

/** Reuse Recent Analysis: whether a report was analysed less than `hours` ago (never when its date is unknown). */
function analysedWithin(report: IDataObject, hours: number): boolean {
	const at = Date.parse(String(report.generated_at ?? ''));
	return hours > 0 && Number.isFinite(at) && Date.now() - at < hours * 3_600_000;
}

/** How a URL is analysed: Confirm Drops, Reuse Recent Analysis, and the project its site's reports are read by (its host's when not given). */
export interface AnalysisOptions {
	confirmPoints: number | undefined;
	reuseHours: number;
	project?: string;
}

async function analyse(
	caller: ItemCaller,
	url: string,
	body: IDataObject,
	{ confirmPoints, reuseHours, project = projectOfUrl(url) }: AnalysisOptions,
): Promise<Outcome> {
	const { spec } = caller;
	const reports = (await reportsOfSite(caller, project)).get(sameUrlKey(url)) ?? [];
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

/**
 * A URL's analysis as Create or Re-Run makes it (its site's reports read once, a re-run or a create,
 * or a recent report reused), shared by the run's items of that URL: Compare With Competitors' too.
 */
export function sharedAnalysis(
	caller: ItemCaller,
	url: string,
	body: IDataObject,
	options: AnalysisOptions,
): Promise<Outcome> {
	const { run } = caller;
	const analysis = run.once(`createOrRerun analysis ${sameUrlKey(url)}`, () =>
		analyse(caller, url, body, options),
	);
	// A failed analysis may still have created the report: the next try reads the site again.
	analysis.catch(() => run.forget(siteKey(options.project ?? projectOfUrl(url))));
	return analysis;
}
