import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { Run } from '../transport/run';
import { groupChanges } from '../site/groups';
import type { SiteSummary } from '../site/types';
import { historyHomeOf } from './homes';
import { type SiteHistoryFields, siteHistoryFields } from './historyFields';
import { ticketPerPage } from './findings';
import {
	addRun,
	emptyHistory,
	groupRecord,
	PAGE_RUNS_KEPT,
	pageRecord,
	runRecord,
	type SiteHistory,
} from './model';
import { keptFields, type OpenSite, writerOf } from './stores';

/*
 * A site's run kept where History Store says (homes.ts): the home opened before any phpRank
 * request, then after the audit the site's past runs read, this run added (`addRun`: a record its
 * execution wrote before, Retry On Fail's, is replaced) and kept on a production run, and the site
 * item's history fields made of it.
 */

/** Before any phpRank request: the home of the item's site opened (Data Table: the run's sites' rows, read once). */
export async function openSiteHistory(
	ctx: IExecuteSingleFunctions,
	run: Run,
	project: string,
	groups: boolean,
): Promise<OpenSite> {
	const home = historyHomeOf(ctx, 'createOrRerun')!;
	return await home.sites.open(ctx, run, project, groups, ticketPerPage(ctx));
}

/** The site's histories with this run: its own, its groups' (Page Groups set), its pages' (Ticket Per → Page). */
export type FindingHistories = {
	history: SiteHistory;
	groupHistory?: SiteHistory;
	pageHistory?: SiteHistory;
};

/** The site item's history fields and the history with this run, kept where History Store says (not on manual runs). */
export async function keepSiteRun(
	ctx: IExecuteSingleFunctions,
	home: OpenSite,
	site: SiteSummary,
	length: number,
	pairs?: readonly string[],
): Promise<{ fields: SiteHistoryFields } & FindingHistories> {
	const past = await home.past(ctx, site.project);
	const record = runRecord(site, Date.now() / 1000);
	const writer = writerOf(ctx);
	const history = addRun(past.history, record, writer);
	const groupHistory = site.groups
		? addRun(past.groupHistory ?? emptyHistory(), groupRecord(record.at, site.groups), writer)
		: undefined;
	const pageHistory = pairs
		? addRun(
				past.pageHistory ?? emptyHistory(),
				pageRecord(record.at, pairs),
				writer,
				PAGE_RUNS_KEPT,
			)
		: undefined;
	const kept = await home.keep(ctx, site, history, groupHistory, pageHistory);
	const { history_saved, ...error } = keptFields(kept);
	const fields = {
		...siteHistoryFields(history, history_saved, site.failing_checks, length),
		...(site.groups
			? groupChanges(past.groupsBefore, {
					groups: site.groups,
					broken_groups: site.broken_groups ?? [],
					budgets_passed: site.budgets_passed ?? true,
					breaches: site.breaches ?? [],
				})
			: {}),
		...error,
	};
	return { fields, history, groupHistory, pageHistory };
}
