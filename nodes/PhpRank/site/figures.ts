import type { IDataObject } from 'n8n-workflow';

import type { ResultClass } from '../api';
import { type CheckChange, checkStates, classify, importanceRank, sameUrlKey } from '../report';
import type { CheckCount, PageEntry, SiteHealth } from './types';

/*
 * A whole site (one phpRank project) from its reports alone, for Project → Get Health and Create or
 * Re-Run's One Item per Site (shapes in types.ts; written for people in site/text.ts):
 * - pages: the site's URLs, each by its newest report (a URL re-created keeps one page);
 * - health_score: the share of pages, 0-100, with no failed high-importance check (as Ahrefs'
 *   Health Score counts pages without an error-level issue);
 * - failing_checks: every check failing on a page, high before medium before low, then most pages
 *   first; top_issues: the first three in words; worst_pages: the lowest scores, with links.
 */

export interface SiteOptions {
	/** How many worst pages (and biggest drops) to list, 1-100. */
	worstPages: number;
	/** Worst Pages By → Most Clicks (with Search Console Data; else by the lowest score). */
	worstBy?: 'score' | 'clicks';
	/** Points a page's score must move to count as worse or better. */
	minChange: number;
	/** A report's page in phpRank, from its ID. */
	link: (id: unknown) => string;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export function mean(values: number[]): number | null {
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
export function countChecks(lists: CheckChange[][]): CheckCount[] {
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

/** The checks a report failed, with their importance. */
export function failedOf(record: IDataObject): CheckChange[] {
	return [...checkStates(record.results)]
		.filter(([, state]) => !state.passed)
		.map(([check, { importance }]) => ({ check, importance }));
}

/** A page as lists of pages show it: ID, URL, score, class and its report's link. */
export function pageEntry(record: IDataObject, options: SiteOptions): PageEntry {
	const { score, result_class } = classify(record.result);
	return {
		id: (record.id as string | number | undefined) ?? null,
		url: (record.url as string | undefined) ?? null,
		score,
		result_class,
		link: options.link(record.id),
	};
}

/** The health of the pages `records` (one record per page), as Get Health and the site summary give it. */
export function siteHealth(records: IDataObject[], options: SiteOptions): SiteHealth {
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
		failing_checks: failing,
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
