import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { Run } from '../transport/run';
import { groupChanges } from '../site/groups';
import type { SiteSummary } from '../site/types';
import { type SiteHistoryFields, siteHistoryFields } from './historyFields';
import { addRun, runRecord } from './model';
import { type HistoryStore, type HistoryStoreName, historyStoreOf, writerOf } from './stores';
import { tableStore } from './tableStore';
import { workflowStore } from './workflowStore';

/*
 * A site's run kept where History Store says (stores.ts): the home prepared before any phpRank
 * request, then after the audit the site's past runs read, this run added (`addRun`: a record its
 * execution wrote before, Retry On Fail's, is replaced) and kept on a production run, and the site
 * item's history fields made of it.
 */

/** Each home of the History Store, by its name: one that lacks a method is refused by `tsc`. */
const STORES: Record<HistoryStoreName, HistoryStore> = {
	workflow: workflowStore,
	dataTable: tableStore,
};

const storeOf = (ctx: IExecuteSingleFunctions) => STORES[historyStoreOf(ctx, 'createOrRerun')];

/** Before any phpRank request: the home of the item's site prepared (Data Table: the run's sites' rows, read once). */
export async function prepareSiteHistory(
	ctx: IExecuteSingleFunctions,
	run: Run,
	project: string,
): Promise<void> {
	await storeOf(ctx).prepare(ctx, run, project);
}

/** The site item's history fields, this run kept where History Store says (not on manual runs). */
export async function keepSiteRun(
	ctx: IExecuteSingleFunctions,
	run: Run,
	site: SiteSummary,
	length: number,
): Promise<SiteHistoryFields> {
	const store = storeOf(ctx);
	const past = await store.past(ctx, run, site.project);
	const history = addRun(past.history, runRecord(site, Date.now() / 1000), writerOf(ctx));
	const kept = await store.keep(ctx, run, site, history);
	const fields: SiteHistoryFields = {
		...siteHistoryFields(history, kept.saved, site.failing_checks, length),
		...(site.groups
			? groupChanges(past.groupsBefore, {
					groups: site.groups,
					broken_groups: site.broken_groups ?? [],
					budgets_passed: site.budgets_passed ?? true,
					breaches: site.breaches ?? [],
				})
			: {}),
	};
	return kept.error === undefined ? fields : { ...fields, history_error: kept.error };
}
