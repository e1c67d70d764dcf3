import type { IDataObject } from 'n8n-workflow';

import type { ResultClass } from '../../api';
import {
	type CheckChange,
	checkStates,
	classify,
	importanceRank,
	type ReportChanges,
	sameUrlKey,
} from '../../report';

/*
 * A whole site (one phpRank project) from its reports alone, for Project → Get Health and Create or
 * Re-Run's One Item per Site (written for people in operations/site/text.ts):
 * - pages: the site's URLs, each by its newest report (a URL re-created keeps one page);
 * - health_score: the share of pages, 0-100, with no failed high-importance check (as Ahrefs'
 *   Health Score counts pages without an error-level issue);
 * - failing_checks: every check failing on a page, high before medium before low, then most pages
 *   first; top_issues: the first three in words; worst_pages: the lowest scores, with links.
 */

export interface SiteOptions {
	/** How many worst pages (and biggest drops) to list, 1-100. */
	worstPages: number;
	/** Points a page's score must move to count as worse or better. */
	minChange: number;
	/** A report's page in phpRank, from its ID. */
	link: (id: unknown) => string;
}

export interface CheckCount extends CheckChange {
	pages: number;
}

/** One page of a Create or Re-Run run, as the run ended for it. */
export interface RunPage {
	url: string;
	action?: 'created' | 'rerun';
	record?: IDataObject;
	changes?: ReportChanges | null;
	/** Why phpRank could not analyse it (a page the run lost, not the audit). */
	failure?: string;
	/** Confirm Drops: false when a suspected drop was noise (it is then not counted as worse). */
	confirmed?: boolean;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

function mean(values: number[]): number | null {
	return values.length
		? round1(values.reduce((sum, value) => sum + value, 0) / values.length)
		: null;
}

function median(values: number[]): number | null {
	if (!values.length) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return round1(sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2);
}

/** Each URL's newest report (by ID), in the order first seen. */
export function newestPerUrl(records: IDataObject[]): IDataObject[] {
	const byUrl = new Map<string, IDataObject>();
	for (const record of records) {
		const key = sameUrlKey(String(record.url ?? ''));
		const known = byUrl.get(key);
		if (!known || Number(record.id) > Number(known.id)) byUrl.set(key, record);
	}
	return [...byUrl.values()];
}

/** Checks by how many pages they concern, most important first, then most pages, then by name. */
function countChecks(lists: CheckChange[][]): CheckCount[] {
	const counts = new Map<string, CheckCount>();
	for (const list of lists) {
		for (const { check, importance } of list) {
			const known = counts.get(check);
			if (!known) counts.set(check, { check, importance, pages: 1 });
			else {
				known.pages += 1;
				if (importanceRank(importance) < importanceRank(known.importance))
					known.importance = importance;
			}
		}
	}
	return [...counts.values()].sort(
		(a, b) =>
			importanceRank(a.importance) - importanceRank(b.importance) ||
			b.pages - a.pages ||
			a.check.localeCompare(b.check),
	);
}

function failedOf(record: IDataObject): CheckChange[] {
	return [...checkStates(record.results)]
		.filter(([, state]) => !state.passed)
		.map(([check, { importance }]) => ({ check, importance }));
}

/** A page as lists of pages show it: ID, URL, score, class and its report's link. */
function pageEntry(record: IDataObject, options: SiteOptions): IDataObject {
	const { score, result_class } = classify(record.result);
	return {
		id: record.id ?? null,
		url: record.url ?? null,
		score,
		result_class,
		link: options.link(record.id),
	};
}

/** The health of the pages `records` (one record per page), as Get Health and the site summary give it. */
export function siteHealth(records: IDataObject[], options: SiteOptions): IDataObject {
	const classified = records.map((record) => ({ record, ...classify(record.result) }));
	const scores = classified
		.map(({ score }) => score)
		.filter((score): score is number => score !== null);
	const average = mean(scores);
	const byClass = (value: ResultClass) =>
		classified.filter(({ result_class }) => result_class === value).length;
	const failing = countChecks(records.map(failedOf));
	const healthy = records.filter(
		(record) => !failedOf(record).some(({ importance }) => importance === 'high'),
	).length;
	const dates = records
		.map((record) => record.generated_at)
		.filter((date): date is string => typeof date === 'string')
		.sort();
	const worst = classified
		.filter(({ score }) => score !== null)
		.sort((a, b) => a.score! - b.score! || Number(a.record.id) - Number(b.record.id))
		.slice(0, options.worstPages)
		.map(({ record }) => pageEntry(record, options));
	return {
		pages: records.length,
		average_score: average,
		median_score: median(scores),
		result_class: classify(average).result_class,
		health_score: records.length ? Math.round((healthy / records.length) * 100) : null,
		good_pages: byClass('good'),
		decent_pages: byClass('decent'),
		bad_pages: byClass('bad'),
		failing_checks: failing as unknown as IDataObject[],
		top_issues: failing
			.slice(0, 3)
			.map(
				({ check, importance, pages }) =>
					`${check} (${importance}) on ${pages} of ${records.length} pages`,
			),
		worst_pages: worst,
		analysed_from: dates[0] ?? null,
		analysed_to: dates[dates.length - 1] ?? null,
	};
}

/**
 * The summary of one site's pages in a Create or Re-Run run: what was created and re-run, how the
 * scores moved (re-run pages only: a created page has no score before), which checks newly failed
 * or were fixed and on how many pages, the biggest drops, the pages phpRank could not analyse, and
 * the health of the pages the run analysed.
 */
export function siteSummary(project: string, pages: RunPage[], options: SiteOptions): IDataObject {
	const analysed = pages.filter(
		(page): page is RunPage & { record: IDataObject } => page.record !== undefined,
	);
	const rerun = analysed.filter((page) => page.action === 'rerun' && page.changes);
	const deltas = rerun
		.map(({ changes }) => changes!.scoreDelta)
		.filter((delta): delta is number => delta !== null);
	const previous = rerun
		.map(({ changes }) => changes!.previous.result)
		.filter((score): score is number => score !== null);
	// With Confirm Drops, a drop that did not hold in the second analysis is not worse.
	const moved = (sign: 1 | -1) =>
		rerun.filter(({ changes, confirmed }) => {
			const delta = changes!.scoreDelta;
			return (
				delta !== null &&
				delta * sign >= Math.max(options.minChange, Number.EPSILON) &&
				!(sign < 0 && confirmed === false)
			);
		}).length;
	const drops = rerun
		.filter(({ changes }) => changes!.scoreDelta !== null && changes!.scoreDelta < 0)
		.sort(
			(a, b) =>
				a.changes!.scoreDelta! - b.changes!.scoreDelta! ||
				Number(a.record.id) - Number(b.record.id),
		)
		.slice(0, options.worstPages)
		.map(({ record, changes }) => {
			const { id, url, score, link } = pageEntry(record, options);
			return { id, url, score, score_change: changes!.scoreDelta, link };
		});
	const health = siteHealth(newestPerUrl(analysed.map(({ record }) => record)), options);
	return {
		project,
		pages: health.pages,
		created: analysed.filter((page) => page.action === 'created').length,
		rerun: rerun.length,
		previous_average_score: mean(previous),
		average_score: health.average_score,
		average_change: mean(deltas),
		worse_pages: moved(-1),
		better_pages: moved(1),
		newly_failing_checks: countChecks(
			rerun.map(({ changes }) => changes!.failed),
		) as unknown as IDataObject[],
		newly_fixed_checks: countChecks(
			rerun.map(({ changes }) => changes!.fixed),
		) as unknown as IDataObject[],
		biggest_drops: drops,
		...health,
		failed_pages: pages
			.filter((page) => page.failure !== undefined)
			.map(({ url, failure }) => ({ url, reason: failure })),
	};
}
