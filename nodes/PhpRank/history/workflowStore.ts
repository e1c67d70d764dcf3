import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { decodeHistory, decodePageHistory, encodeHistory, encodePageHistory } from './encode';
import type { SiteHistory } from './model';
import { type HistoryHome, isProduction, type OpenSite, writerOf } from './stores';
import { recordedTickets, workflowTickets } from './tickets';

/*
 * History Store → This Workflow: the node's static data (`getWorkflowStaticData('node')`), one
 * string per site (encode.ts) and one check table for the node, and with Page Groups the groups
 * over budget at the site's last production run and the runs of its groups (their failing checks
 * only, as `group · check`, another such string), with Ticket Per → Page the last two runs of its
 * pages (`page · check`, the same string over a pair table of the site's own, encode.ts). n8n saves
 * static data after every execution whose mode is not `manual` (on main and on queue-mode workers
 * alike), so a manual run shows this run last and keeps nothing. A new value is set at the top level: n8n marks static data changed only
 * when such a key is set (or deleted).
 */

const TABLE_KEY = 'historyChecks';
const siteKey = (project: string) => `history ${project}`;
const groupsKey = (project: string) => `groups ${project}`;
const groupHistoryKey = (project: string) => `group history ${project}`;
const pageHistoryKey = (project: string) => `page history ${project}`;

const staticData = (ctx: IExecuteSingleFunctions) =>
	ctx.getWorkflowStaticData('node') as IDataObject;

const checkTable = (data: IDataObject): string[] =>
	(Array.isArray(data[TABLE_KEY]) ? (data[TABLE_KEY] as unknown[]) : []).filter(
		(name): name is string => typeof name === 'string',
	);

/** The history this node keeps of a site in the workflow's static data (empty when none). */
export function workflowHistory(ctx: IExecuteSingleFunctions, project: string): SiteHistory {
	const data = staticData(ctx);
	return decodeHistory(data[siteKey(project)], checkTable(data));
}

/** Forgets a site's history in the static data (moved into an n8n data table). */
export function forgetWorkflowHistory(ctx: IExecuteSingleFunctions, project: string): void {
	const data = staticData(ctx);
	if (siteKey(project) in data) delete data[siteKey(project)];
}

const namesOf = (value: unknown): string[] | null =>
	Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : null;

/**
 * The groups over budget at the site's previous production run (null: none kept). Only the last
 * state is kept, and the one before it, so that Retry On Fail's next try compares with the same run
 * as the first; each group's figures over time are Data Table's to keep.
 */
function groupsBefore(data: IDataObject, project: string, execution: string): string[] | null {
	const stored = data[groupsKey(project)];
	if (!stored || typeof stored !== 'object') return null;
	const kept = stored as IDataObject;
	const retry = execution !== '' && String(kept.execution ?? '') === execution;
	return retry ? namesOf(kept.before) : (namesOf(kept.broken) ?? []);
}

const openSite: OpenSite = {
	async past(ctx, project) {
		const data = staticData(ctx);
		return {
			history: decodeHistory(data[siteKey(project)], checkTable(data)),
			groupsBefore: groupsBefore(data, project, writerOf(ctx)),
			groupHistory: decodeHistory(data[groupHistoryKey(project)], checkTable(data)),
			pageHistory: decodePageHistory(data[pageHistoryKey(project)], checkTable(data)),
		};
	},

	async keep(ctx, site, history, groupHistory, pageHistory) {
		if (!isProduction(ctx)) return { saved: false };
		const data = staticData(ctx);
		const table = checkTable(data);
		const grown = [...table];
		data[siteKey(site.project)] = encodeHistory(history, grown);
		if (groupHistory) data[groupHistoryKey(site.project)] = encodeHistory(groupHistory, grown);
		if (pageHistory) data[pageHistoryKey(site.project)] = encodePageHistory(pageHistory, grown);
		if (grown.length !== table.length) data[TABLE_KEY] = grown;
		if (site.groups) {
			const execution = writerOf(ctx);
			const before = groupsBefore(data, site.project, execution);
			data[groupsKey(site.project)] = { execution, broken: site.broken_groups ?? [], before };
		}
		return { saved: true };
	},

	tickets: recordedTickets,
};

/** Create or Re-Run's home and Record Finding Ticket's: nothing to check or read before the run. */
export const workflowHome: HistoryHome = {
	check() {},
	sites: { open: async () => openSite },
	tickets: workflowTickets,
};
