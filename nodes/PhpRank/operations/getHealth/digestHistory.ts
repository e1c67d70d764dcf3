import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { inputProblem } from '../../input';
import type { DatedRun } from '../../history/model';
import { isTableProblem } from '../../history/n8nApi';
import { historyStoreOf, tableChoiceOf } from '../../history/stores';
import type { TableChoice } from '../../history/tableApi';
import { readTableRuns } from '../../history/tableStore';
/*
 * One Digest's history: the rows Create or Re-Run's One Item per Site writes to a data table
 * (History Store → Data Table), read once for every site of the account (one OR filter, split by
 * length as tableStore.ts does; 250 rows a request). Read only: the digest never writes.
 */

/** Where the digest says to turn its changes and issue ages on, when History Store is off. */
export const HISTORY_OFF_NOTE =
	'Changes and issue ages are off: set History Store to Data Table in this node, with the table Create or Re-Run (One Item per Site, History Store → Data Table) writes each site’s runs to.';

/** Whether the digest reads a history: History Store → Data Table (its default is None). */
export const digestStoreOn = (ctx: IExecuteSingleFunctions) =>
	historyStoreOf(ctx, 'digest') === 'dataTable';

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

/** Each site's runs in the table (the same reader as Create or Re-Run's), or why there are none (the table not made yet). */
async function readTable(
	ctx: IExecuteSingleFunctions,
	choice: TableChoice,
	sites: readonly string[],
): Promise<DigestHistory> {
	const runs = await readTableRuns(ctx, choice, sites);
	if (runs) return { runs, note: null };
	return {
		runs: new Map(sites.map((site) => [site, []])),
		note: `The history table "${choice.value}" does not exist yet: Create or Re-Run (One Item per Site, History Store → Data Table) makes it on its first production run.`,
	};
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
