import type { IDataObject } from 'n8n-workflow';

import {
	type FindingPage,
	findingItems,
	type FindingItem,
	type FindingSettings,
	type HeldItem,
	type TicketPer,
} from '../../history/findings';
import { groupCheck, type SiteHistory } from '../../history/model';
import type { Ticket } from '../../history/stores';
import { failedOf, pageEntry, type SiteOptions } from '../../site/figures';
import { groupOf, urlPath } from '../../site/groups';
import type { PageGroupSettings } from '../../site/pageGroups';
import { type SearchConsoleRows, trafficByPage, trafficOf } from '../../site/traffic';
import type { CheckCount, SiteSummary } from '../../site/types';

/*
 * Output → One Item per Finding Change of a site (history/findings.ts): with Ticket Per → Site its
 * failing checks as the site summary counts them; with Page Group each group's, named `group ·
 * check`, with the clicks of the group's pages that fail it; with Page each page's, named `page ·
 * check` (the page its URL's path and query), with the page's clicks.
 */

/** A page as its findings name it: its URL's path and query (`/products/a?size=2`). */
const pageOf = (record: IDataObject) => urlPath(String(record.url ?? ''), 'regex');

/** Ticket Per → Page: the run's failing `page · check` pairs, for the pages' history (history/keep.ts). */
export const failingPairs = (records: readonly IDataObject[]): string[] => [
	...new Set(
		records.flatMap((record) =>
			failedOf(record).map(({ check }) => groupCheck(pageOf(record), check)),
		),
	),
];

/** Each page's failing checks as findings count them: named `page · check`, one page each, with traffic the page's clicks. */
function pageFailing(records: readonly IDataObject[], site: SiteFindings): CheckCount[] {
	const of = site.traffic && trafficOf(trafficByPage(site.traffic));
	const counts = new Map<string, CheckCount>();
	for (const record of records)
		for (const { check, importance } of failedOf(record)) {
			const named = groupCheck(pageOf(record), check);
			const traffic = of?.([String(record.url ?? '')]);
			counts.set(named, {
				check: named,
				importance,
				pages: 1,
				...(traffic && {
					clicks_affected: traffic.clicks,
					impressions_affected: traffic.impressions,
				}),
			});
		}
	return [...counts.values()];
}

export interface SiteFindings {
	summary: SiteSummary;
	/** One report a page: the run's pages and, with Every Page of the Site, the others. */
	records: readonly IDataObject[];
	link: SiteOptions['link'];
	history: SiteHistory;
	groupHistory?: SiteHistory;
	pageHistory?: SiteHistory;
	tickets: ReadonlyMap<string, Ticket>;
	settings: PageGroupSettings;
	traffic?: SearchConsoleRows;
	/** Whether another execution's run landed just before this one, by Ticket Per (history/claim.ts). */
	landed?: Partial<Record<TicketPer, boolean>>;
}

/** Each page's entry and failing checks (by group: `group · check`), for its findings' worst pages. */
function findingPages(
	records: readonly IDataObject[],
	link: SiteOptions['link'],
	nameOf: (record: IDataObject, check: string) => string,
): FindingPage[] {
	return records.map((record) => ({
		...pageEntry(record, { worstPages: 0, minChange: 0, link }),
		failing: failedOf(record).map(({ check }) => nameOf(record, check)),
	}));
}

/** Each page group's failing checks as findings count them: named `group · check`, with traffic the clicks of the pages it fails on. */
function groupFailing(pages: readonly FindingPage[], site: SiteFindings): CheckCount[] {
	const of = site.traffic && trafficOf(trafficByPage(site.traffic));
	return (site.summary.groups ?? []).flatMap(({ name, failing_checks }) =>
		failing_checks.map(({ check, importance, pages: count }) => {
			const named = groupCheck(name, check);
			const failing: CheckCount = { check: named, importance, pages: count };
			if (!of) return failing;
			const urls = pages.filter((page) => page.failing.includes(named));
			const { clicks, impressions } = of(urls.map(({ url }) => String(url ?? '')));
			return { ...failing, clicks_affected: clicks, impressions_affected: impressions };
		}),
	);
}

/** The site's finding items of this run, by its Finding Options (`findingsOf`, checked before any request). */
export function siteFindingItems(
	settings: FindingSettings,
	site: SiteFindings,
): Array<FindingItem | HeldItem> {
	const { groups } = site.settings;
	const options = { ...settings, landed: site.landed?.[settings.per] === true };
	const { project, traffic_period: period } = site.summary;
	if (options.per === 'site') {
		const pages = findingPages(site.records, site.link, (_, check) => check);
		const found = { failing: site.summary.failing_checks, pages, period };
		return findingItems(project, site.history, found, options, site.tickets);
	}
	if (options.per === 'page') {
		const pages = findingPages(site.records, site.link, (record, check) =>
			groupCheck(pageOf(record), check),
		);
		const found = { failing: pageFailing(site.records, site), pages, period };
		return findingItems(project, site.pageHistory!, found, options, site.tickets);
	}
	const pages = findingPages(site.records, site.link, (record, check) =>
		groupCheck(groupOf(record.url, groups), check),
	);
	const found = { failing: groupFailing(pages, site), pages, period };
	return findingItems(project, site.groupHistory!, found, options, site.tickets);
}
