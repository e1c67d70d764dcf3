import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { HISTORY_SIDES, type HistoryHome, type HistoryOperation, writerOf } from './stores';
import { tableHome } from './tableStore';
import { workflowHome } from './workflowStore';

/*
 * The homes of the History Store by the name History Store stores, and the one function that
 * chooses an item's home: a third home is one entry in HISTORY_HOMES (its sides say which
 * operations offer it).
 */

export const HISTORY_HOMES: Record<string, HistoryHome> = {
	workflow: workflowHome,
	dataTable: tableHome,
};

/** History Store when unset or unknown, in each operation ('none': no history). */
const DEFAULTS: Record<HistoryOperation, string> = {
	createOrRerun: 'workflow',
	digest: 'none',
	compare: 'none',
	recordTicket: 'workflow',
};

/** A home that has the operation's side. */
export type HomeFor<O extends HistoryOperation> = HistoryHome &
	Required<Pick<HistoryHome, (typeof HISTORY_SIDES)[O]>>;

/** The item's home as History Store names it in this operation (the one reader of the parameter); null for None. */
export function historyHomeOf<O extends HistoryOperation>(
	ctx: IExecuteSingleFunctions,
	operation: O,
	homes: Readonly<Record<string, HistoryHome>> = HISTORY_HOMES,
): HomeFor<O> | null {
	const side = HISTORY_SIDES[operation];
	const offered = (name: string) =>
		Object.hasOwn(homes, name) && homes[name][side] ? (homes[name] as HomeFor<O>) : null;
	const initial = DEFAULTS[operation];
	return offered(String(ctx.getNodeParameter('historyStore', initial))) ?? offered(initial);
}

/** The item's home and its own settings (and Run Key) checked, before anything is sent. */
export function checkHistoryHome(ctx: IExecuteSingleFunctions, operation: HistoryOperation): void {
	historyHomeOf(ctx, operation)?.check(ctx, operation);
	writerOf(ctx);
}
