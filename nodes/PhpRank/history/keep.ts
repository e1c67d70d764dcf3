import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { Run } from '../transport/run';
import { groupChanges } from '../site/groups';
import type { SiteSummary } from '../site/types';
import { historyHomeOf } from './homes';
import { type SiteHistoryFields, siteHistoryFields } from './historyFields';
import { afterLanded } from './claim';
import {
	addRun,
	emptyHistory,
	groupRecord,
	runRecord,
	type RunRecord,
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
	return await historyHomeOf(ctx, 'createOrRerun')!.sites.open(ctx, run, project, groups);
}

/** What findings read: the histories with this run last, and whether another execution's run landed just before it. */
export interface FindingHistories {
	history: SiteHistory;
	groupHistory?: SiteHistory;
	landed: { site: boolean; group: boolean };
}

/** This run's histories with the runs that landed just before it put between (claim.ts); none landed: as kept. */
async function findingHistories(
	ctx: IExecuteSingleFunctions,
	home: OpenSite,
	project: string,
	past: PastRuns,
	mine: Omit<FindingHistories, 'landed'> & { record: RunRecord; group?: RunRecord },
): Promise<FindingHistories> {
	const landed = home.landed ? await home.landed(ctx, project) : [];
	const landedGroups = landed.flatMap(({ groups, execution }) =>
		groups ? [{ record: groups, execution }] : [],
	);
	const writer = writerOf(ctx);
	const { group } = mine;
	return {
		history: landed.length ? afterLanded(past.history, landed, mine.record, writer) : mine.history,
		groupHistory:
			group && landedGroups.length
				? afterLanded(past.groupHistory ?? emptyHistory(), landedGroups, group, writer)
				: mine.groupHistory,
		landed: { site: landed.length > 0, group: !!group && landedGroups.length > 0 },
	};
}

const NONE_LANDED = { site: false, group: false };

/**
 * The site item's history fields and the history with this run, kept where History Store says (not
 * on manual runs); with `findings` (One Item per Finding Change), the histories its events read.
 */
export async function keepSiteRun(
	ctx: IExecuteSingleFunctions,
	home: OpenSite,
	site: SiteSummary,
	length: number,
	findings = false,
): Promise<{ fields: SiteHistoryFields } & FindingHistories> {
	const past = await home.past(ctx, site.project);
	const record = runRecord(site, Date.now() / 1000);
	const writer = writerOf(ctx);
	const history = addRun(past.history, record, writer);
	const group = site.groups && groupRecord(record.at, site.groups);
	const groupHistory = group
		? addRun(past.groupHistory ?? emptyHistory(), group, writer)
		: undefined;
	const kept = await home.keep(ctx, site, history, groupHistory);
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
	if (!findings || !kept.saved) return { fields, history, groupHistory, landed: NONE_LANDED };
	const mine = { history, groupHistory, record, group };
	return { fields, ...(await findingHistories(ctx, home, site.project, past, mine)) };
}
