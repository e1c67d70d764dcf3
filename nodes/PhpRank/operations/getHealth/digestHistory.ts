import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { inputProblem } from '../input';
import { isTableProblem } from '../history/n8nApi';
import { type DatedRun, datedRunOfRow } from '../history/rows';
import { tableChoiceOf } from '../history/keep';
import { findTable, readRows, type TableChoice } from '../history/tableStore';

/*
 * One Digest's history: the rows Create or Re-Run's One Item per Site writes to a data table
 * (History Store → Data Table), read once for every site of the account (one OR filter, split by
 * length as tableStore.ts does; 250 rows a request). Read only: the digest never writes.
 */

/** Where the digest says to turn its changes and issue ages on, when History Store is off. */
export const HISTORY_OFF_NOTE =
	'Changes and issue ages are off: set History Store to Data Table in this node, with the table Create or Re-Run (One Item per Site, History Store → Data Table) writes each site’s runs to.';

/** History Store of the digest: `none` (the default) or `dataTable`. */
export const digestStoreOn = (ctx: IExecuteSingleFunctions) =>
	ctx.getNodeParameter('historyStore', 'none') === 'dataTable';

/** History Table as chosen; an empty one stops the item with an error naming the field. */
export const digestTableChoice = (ctx: IExecuteSingleFunctions): TableChoice =>
	tableChoiceOf(
		ctx,
		'Pick the data table Create or Re-Run keeps the sites’ history in under History Table (From List or By ID, or its name By Name), or set History Store to None.',
	);

export interface DigestHistory {
	/** Each site's runs, by site; null when History Store is off. */
	runs: Map<string, DatedRun[]> | null;
	/** What the digest says about its history: null when every site's could be read. */
	note: string | null;
}

/** Each site's runs in the table, or why there are none (the table not made yet). */
async function readTable(
	ctx: IExecuteSingleFunctions,
	choice: TableChoice,
	sites: readonly string[],
): Promise<DigestHistory> {
	const table = await findTable(ctx, choice, false);
	const runs = new Map<string, DatedRun[]>(sites.map((site) => [site, []]));
	if (!table)
		return {
			runs,
			note: `The history table "${choice.value}" does not exist yet: Create or Re-Run (One Item per Site, History Store → Data Table) makes it on its first production run.`,
		};
	for (const row of await readRows(ctx, table, sites)) {
		const run = datedRunOfRow(row);
		const site = runs.get(String(row.site));
		if (run && site) site.push(run);
	}
	return { runs, note: null };
}

/** The runs of `sites` in the history table (one read), or why there are none; a table that cannot be read stops the item with what to fix. */
export async function readDigestHistory(
	ctx: IExecuteSingleFunctions,
	sites: readonly string[],
): Promise<DigestHistory> {
	if (!digestStoreOn(ctx)) return { runs: null, note: HISTORY_OFF_NOTE };
	return await readTable(ctx, digestTableChoice(ctx), sites).catch((error: unknown) =>
		Promise.reject(
			isTableProblem(error)
				? inputProblem(ctx, `${error.message}. The digest was not made.`, error.description ?? '')
				: error,
		),
	);
}
