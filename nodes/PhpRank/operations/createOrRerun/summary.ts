import type { IDataObject } from 'n8n-workflow';

import type { ReportChanges } from '../../report';
import {
	countChecks,
	mean,
	newestPerUrl,
	pageEntry,
	type SiteOptions,
	siteHealth,
} from '../../site/figures';
import { NO_BUDGET, withGroups } from '../../site/groups';
import type { PageGroupSettings } from '../../site/pageGroups';
import { type SearchConsoleRows, siteTraffic } from '../../site/traffic';
import type { SiteSummary } from '../../site/types';

/*
 * Create or Re-Run's site (One Item per Site) before its history: the run's pages summed up beside
 * the health of the pages it analysed (site/figures.ts).
 */

/** One page of a Create or Re-Run run, as the run ended for it. */
export interface RunPage {
	url: string;
	action?: 'created' | 'rerun' | 'reused';
	record?: IDataObject;
	changes?: ReportChanges | null;
	/** Why phpRank could not analyse it (a page the run lost, not the audit). */
	failure?: string;
	/** Confirm Drops: false when a suspected drop was noise (it is then not counted as worse). */
	confirmed?: boolean;
}

/** The re-run pages whose score fell, the deepest first: the first Worst Pages of them. */
function biggestDrops(rerun: Array<RunPage & { record: IDataObject }>, options: SiteOptions) {
	return rerun
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
}

/**
 * The summary of one site's pages in a Create or Re-Run run: what was created and re-run, how the
 * scores moved (re-run pages only: a created page has no score before), which checks newly failed
 * or were fixed and on how many pages, the biggest drops, the pages phpRank could not analyse, and
 * the health of the pages the run analysed, with Figures From → Every Page of the Site also of the
 * site's other pages (`others`: each one's newest report), its groups and budgets judged on them all;
 * with Search Console Data (`traffic`), each failing check and group with the clicks it touches.
 */
export function siteSummary(
	project: string,
	pages: RunPage[],
	options: SiteOptions,
	settings: PageGroupSettings = { groups: [], defaultBudget: NO_BUDGET },
	others: readonly IDataObject[] = [],
	traffic?: SearchConsoleRows,
): SiteSummary {
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
	const drops = biggestDrops(rerun, options);
	const records = newestPerUrl([...analysed.map(({ record }) => record), ...others]);
	const health = siteHealth(records, options);
	// pages and average_score first, as the run reads them; the health repeats them in place.
	const run = {
		project,
		pages: health.pages,
		created: analysed.filter((page) => page.action === 'created').length,
		rerun: rerun.length,
		previous_average_score: mean(previous),
		average_score: health.average_score,
		average_change: mean(deltas),
		worse_pages: moved(-1),
		better_pages: moved(1),
		newly_failing_checks: countChecks(rerun.map(({ changes }) => changes!.failed)),
		newly_fixed_checks: countChecks(rerun.map(({ changes }) => changes!.fixed)),
		biggest_drops: drops,
	};
	const site = {
		...run,
		...health,
		failed_pages: pages
			.filter((page) => page.failure !== undefined)
			.map(({ url, failure }) => ({ url, reason: failure! })),
		...withGroups(records, health, settings, options),
	};
	if (!traffic) return site;
	return { ...site, ...siteTraffic(records, traffic, site, settings.groups, options) };
}
