import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { decodeHistory, encodeHistory } from './encode';
import { addRun, type RunRecord, type SiteHistory } from './record';

/*
 * Where a site's history lives: the node's static data (`getWorkflowStaticData('node')`), one
 * string per site and one check table for the node. n8n saves static data after every execution
 * whose mode is not `manual` (on main and on queue-mode workers alike), so a manual run shows
 * this run last and changes nothing.
 */

const TABLE_KEY = 'historyChecks';
const siteKey = (project: string) => `history ${project}`;

export interface StoredRun {
	history: SiteHistory;
	/** Whether n8n keeps this run (false for a manual execution). */
	saved: boolean;
}

/** The history this node keeps of a site in the workflow's static data (empty when none). */
export function workflowHistory(ctx: IExecuteSingleFunctions, project: string): SiteHistory {
	const data = ctx.getWorkflowStaticData('node') as IDataObject;
	return decodeHistory(data[siteKey(project)], checkTable(data));
}

/** Forgets a site's history in the static data (moved into an n8n data table). */
export function forgetWorkflowHistory(ctx: IExecuteSingleFunctions, project: string): void {
	const data = ctx.getWorkflowStaticData('node') as IDataObject;
	// A deleted top-level key marks static data changed, as a new one does.
	if (siteKey(project) in data) delete data[siteKey(project)];
}

const checkTable = (data: IDataObject): string[] =>
	(Array.isArray(data[TABLE_KEY]) ? (data[TABLE_KEY] as unknown[]) : []).filter(
		(name): name is string => typeof name === 'string',
	);

/** Adds this run's record to the site's history, kept unless the execution is manual. */
export function recordRun(
	ctx: IExecuteSingleFunctions,
	project: string,
	record: RunRecord,
): StoredRun {
	const data = ctx.getWorkflowStaticData('node') as IDataObject;
	const table = checkTable(data);
	const saved = ctx.getMode() !== 'manual';
	const execution = saved ? String(ctx.getExecutionId() ?? '') : '';
	const history = addRun(decodeHistory(data[siteKey(project)], table), record, execution);
	if (saved) {
		// New values at the top level: n8n marks static data changed only when such a key is set.
		const grown = [...table];
		data[siteKey(project)] = encodeHistory(history, grown);
		if (grown.length !== table.length) data[TABLE_KEY] = grown;
	}
	return { history, saved };
}

const groupsKey = (project: string) => `groups ${project}`;

/** A site's page groups as the static data keeps them: those over budget at its last production run, and at the run before. */
interface KeptGroups {
	execution: string;
	broken: string[];
	before: string[] | null;
}

const namesOf = (value: unknown): string[] | null =>
	Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : null;

/**
 * Page Groups in This Workflow: the groups over budget at the site's previous production run (null:
 * none kept); a production run keeps its own (Retry On Fail's next try compares with the same run
 * before). Only the last state is kept, not each group's figures over time (Data Table keeps those).
 */
export function keepGroupStates(
	ctx: IExecuteSingleFunctions,
	project: string,
	broken: string[],
): string[] | null {
	const data = ctx.getWorkflowStaticData('node') as IDataObject;
	const stored = data[groupsKey(project)] as IDataObject | undefined;
	const kept: KeptGroups | null =
		stored && typeof stored === 'object'
			? {
					execution: String(stored.execution ?? ''),
					broken: namesOf(stored.broken) ?? [],
					before: namesOf(stored.before),
				}
			: null;
	const saved = ctx.getMode() !== 'manual';
	const execution = saved ? String(ctx.getExecutionId() ?? '') : '';
	const retry = kept !== null && execution !== '' && kept.execution === execution;
	const before = kept === null ? null : retry ? kept.before : kept.broken;
	// A new value at the top level: n8n marks static data changed only when such a key is set.
	if (saved) data[groupsKey(project)] = { execution, broken, before };
	return before;
}
