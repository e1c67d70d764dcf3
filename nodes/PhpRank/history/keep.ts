import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { Run } from '../transport/run';
import { groupChanges } from '../site/groups';
import type { SiteSummary } from '../site/types';
import { historyHomeOf } from './homes';
import { type SiteHistoryFields, siteHistoryFields } from './historyFields';
import { afterLanded, type LandedRun } from './claim';
import { findingsOf, ticketPerPage, type TicketPer } from './findings';
import {
	addRun,
	emptyHistory,
	groupRecord,
	PAGE_RUNS_KEPT,
	pageRecord,
	type RunRecord,
	runRecord,
	type SiteHistory,
} from './model';
import { keptFields, type OpenSite, type PastRuns, writerOf } from './stores';

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

/**
 * The site's histories with this run: its own, its groups' (Page Groups set), its pages' (Ticket Per
 * → Page); with One Item per Finding Change, whether another execution's run landed just before it.
 */
export type FindingHistories = {
	history: SiteHistory;
	groupHistory?: SiteHistory;
	pageHistory?: SiteHistory;
	landed?: Partial<Record<TicketPer, boolean>>;
};

type Mine = Omit<FindingHistories, 'landed'> & {
	writer: string;
	record: RunRecord;
	group?: RunRecord;
	page?: RunRecord;
};

/** Each history with the runs that landed just before this run put between (claim.ts); none landed: as kept. */
async function findingHistories(
	ctx: IExecuteSingleFunctions,
	home: OpenSite,
	project: string,
	past: PastRuns,
	mine: Mine,
): Promise<FindingHistories> {
	const landed = home.landed ? await home.landed(ctx, project) : [];
	const { writer } = mine;
	const put = (
		of: (run: LandedRun) => RunRecord | null,
		before: SiteHistory | undefined,
		record: RunRecord | undefined,
		kept?: number,
	) => {
		const runs = landed.flatMap((run) => {
			const landedRecord = of(run);
			return landedRecord ? [{ record: landedRecord, execution: run.execution }] : [];
		});
		if (!record || !runs.length) return undefined;
		return afterLanded(before ?? emptyHistory(), runs, record, writer, kept);
	};
	const site = put((run) => run.record, past.history, mine.record);
	const group = put((run) => run.groups, past.groupHistory, mine.group);
	const page = put((run) => run.pages, past.pageHistory, mine.page, PAGE_RUNS_KEPT);
	return {
		history: site ?? mine.history,
		groupHistory: group ?? mine.groupHistory,
		pageHistory: page ?? mine.pageHistory,
		landed: { site: !!site, group: !!group, page: !!page },
	};
}

/**
 * The site item's history fields and the history with this run, kept where History Store says (not
 * on manual runs); with One Item per Finding Change, the histories its events read.
 */
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
	const group = site.groups && groupRecord(record.at, site.groups);
	const groupHistory = group
		? addRun(past.groupHistory ?? emptyHistory(), group, writer)
		: undefined;
	const page = pairs && pageRecord(record.at, pairs);
	const pageHistory = page
		? addRun(past.pageHistory ?? emptyHistory(), page, writer, PAGE_RUNS_KEPT)
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
	// One Item per Finding Change, this run kept: read from the run written just before it.
	if (!findingsOf(ctx) || !kept.saved) return { fields, history, groupHistory, pageHistory };
	const mine = { history, groupHistory, pageHistory, writer, record, group, page };
	return { fields, ...(await findingHistories(ctx, home, site.project, past, mine)) };
}
