import type { IDataObject, IExecutePaginationFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { sameUrlKey } from '../../report';
import { isPageFailure, otherPagesOfSite, type Outcome } from '../../engine/analysis';
import { inputItemCount } from '../../transport/n8nInternals';
import { type Caller, recordLinks } from '../../transport/request';
import { fingerprintOf, recordDone, type Run } from '../../transport/run';
import { type OutputChoice, reportOutput } from '../../engine/reportItem';
import { type RunPage, siteSummary } from './summary';
import type { SiteSummary } from '../../site/types';
import { siteSettings } from '../../site/options';
import { groupOf, type PageGroup } from '../../site/groups';
import type { PageGroupSettings } from '../../site/pageGroups';
import { siteHistoryOutput } from './siteItem';
import { keepSiteRun } from '../../history/keep';
import { findingsOf, ticketPerPage } from '../../history/findings';
import type { OpenSite } from '../../history/stores';
import { historySettings } from './historySettings';
import { failingPairs, siteFindingItems } from './findings';
import { joinRows, type SearchConsoleRows, trafficByPage, trafficKey } from '../../site/traffic';

/*
 * What Create or Re-Run outputs. One Item per Page: each page's report, with `action`, the change
 * columns, `other_reports` (and with Confirm Drops, whether the drop held). One Item per Site: the
 * run's items gathered (`Run.gather`), one item per site paired to its input items, with its
 * summary, and no request more; a page phpRank cannot analyse (422, 5xx, a timeout) is named in
 * `failed_pages`; only a site none of whose pages could be analysed fails, with the first error.
 */

/** One Item per Page: the report shaped as the other operations shape it, with what was done. */
export function pageItem(
	choice: OutputChoice,
	{ action, record, changes, others, confirmation }: Outcome,
	confirmPoints: number | undefined,
	groups: readonly PageGroup[],
	traffic?: SearchConsoleRows,
): IDataObject {
	const confirmed =
		confirmPoints === undefined
			? {}
			: {
					confirmed: confirmation?.confirmed ?? null,
					first_score: confirmation?.first_score ?? null,
				};
	return {
		action,
		...reportOutput(choice, record, changes, { flat: true }),
		other_reports: others,
		...confirmed,
		...(groups.length ? { group: groupOf(record.url, groups) } : {}),
		...(traffic ? pageTraffic(traffic, String(record.url ?? '')) : {}),
	};
}

/** One Item per Page with Search Console Data: the page's clicks and impressions (0 without data). */
function pageTraffic(traffic: SearchConsoleRows, url: string) {
	const page = trafficByPage(traffic).get(trafficKey(url));
	return { clicks: page?.clicks ?? 0, impressions: page?.impressions ?? 0, traffic_data: !!page };
}

interface GatheredPage {
	project: string;
	pages: RunPage[];
	error?: NodeApiError;
	traffic?: SearchConsoleRows;
}

/** One page of the item on its way: its URL and its analysis. */
export interface PageAnalysis {
	url: string;
	analysis: Promise<Outcome>;
}

/** A page's analysis as the site counts it: a page phpRank could not analyse is named, not thrown. */
function runPage({
	url,
	analysis,
}: PageAnalysis): Promise<{ page: RunPage; error?: NodeApiError }> {
	return analysis.then(
		({ action, record, changes, confirmation }) => ({
			page: { url, action, record, changes, confirmed: confirmation?.confirmed },
		}),
		(error: unknown) => {
			if (!isPageFailure(error)) return Promise.reject(error);
			return { page: { url, failure: error.message }, error };
		},
	);
}

/** The item's pages analysed; the reports it created named if the run stops (On Error → Stop), as Create's are. */
async function itemPages(
	{ spec, run }: Caller<IExecutePaginationFunctions> & { run: Run },
	item: number,
	analyses: PageAnalysis[],
): Promise<{ pages: RunPage[]; error?: NodeApiError }> {
	const done = await Promise.all(analyses.map(runPage));
	const pages = done.map(({ page }) => page);
	const created = pages.filter(({ action }) => action === 'created');
	if (created.length)
		recordDone(
			run,
			item,
			fingerprintOf(['createOrRerun', ...created.map(({ url }) => sameUrlKey(url))]),
			created.map(({ record }) => ({ json: record! })),
			spec,
		);
	return { pages, error: done.find(({ error }) => error)?.error };
}

interface SiteItemOptions {
	settings: PageGroupSettings;
	history: OpenSite;
	wholeSite: boolean;
	/** The item's Search Console Data. */
	traffic?: SearchConsoleRows;
}

/** The Search Console Data of a site's items, joined (none given: undefined, no traffic fields). */
const joinedTraffic = (all: Array<SearchConsoleRows | undefined>) =>
	all.some(Boolean) ? joinRows(all) : undefined;

/**
 * One Item per Site: the item's pages join the run's; the first item of each site answers for it.
 * `wholeSite` (Pages From → A Project's Reports): the site's other pages count, as their newest
 * reports say, as with Figures From → Every Page of the Site.
 */
export async function siteItems(
	caller: Caller<IExecutePaginationFunctions> & { run: Run },
	project: string,
	analyses: PageAnalysis[],
	{ settings, history: home, wholeSite, traffic }: SiteItemOptions,
): Promise<INodeExecutionData[]> {
	const { ctx, spec, run } = caller;
	const item = ctx.getItemIndex();
	const gathered: GatheredPage = { project, traffic, ...(await itemPages(caller, item, analyses)) };
	const all = await run.gather('createOrRerun sites', item, gathered, inputItemCount(ctx));
	const mine = [...all]
		.filter(([, { project: site }]) => site === project)
		.sort(([a], [b]) => a - b);
	if (mine[0][0] !== item) return [];
	// Items of the same URL share its analysis: the site counts it once.
	const pages = [
		...new Map(
			mine.flatMap(([, { pages: its }]) => its.map((page) => [sameUrlKey(page.url), page])),
		).values(),
	];
	if (pages.every((page) => page.failure !== undefined))
		throw mine.find(([, { error }]) => error)![1].error!;
	const { worstPages, minChange, worstBy, wholeSite: everyPage } = siteSettings(ctx);
	const others =
		wholeSite || everyPage
			? await otherPagesOfSite(
					{ ctx, spec, run },
					project,
					new Set(pages.map((page) => sameUrlKey(page.url))),
				)
			: [];
	const link = await recordLinks({ ctx, spec });
	const siteTraffic = joinedTraffic(mine.map(([, its]) => its.traffic));
	const summary = siteSummary(
		project,
		pages,
		{ worstPages, minChange, worstBy, link },
		settings,
		others,
		siteTraffic,
	);
	const simplify = ctx.getNodeParameter('simplify', true) as boolean;
	const { length, branding, html } = historySettings(ctx);
	const records = [...pages.flatMap(({ record }) => (record ? [record] : [])), ...others];
	const pairs = ticketPerPage(ctx) ? failingPairs(records) : undefined;
	const { fields, ...histories } = await keepSiteRun(ctx, home, summary, length, pairs);
	const pairedItem = mine.map(([index]) => ({ item: index }));
	const findings = findingsOf(ctx);
	if (findings) {
		const tickets = home.tickets?.(ctx, project) ?? new Map();
		const site = { summary, records, link, ...histories, tickets, settings };
		// With Search Console Data, each finding says how much of the site the data covers.
		const coverage = summary.traffic_coverage === undefined ? {} : coverageOf(summary);
		return siteFindingItems(findings, { ...site, traffic: siteTraffic }).map((json) => ({
			json: { ...json, ...coverage, history_saved: fields.history_saved },
			pairedItem,
		}));
	}
	return [{ json: siteHistoryOutput(summary, fields, { simplify, html }, branding), pairedItem }];
}

const coverageOf = ({ pages_with_traffic, traffic_coverage, traffic_period }: SiteSummary) => ({
	pages_with_traffic,
	traffic_coverage,
	traffic_period,
});
