import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { inputProblem } from '../../input';
import { historyHomeOf } from '../../history/homes';
import type { DatedRun } from '../../history/model';
import { isTableProblem } from '../../history/n8nApi';
/*
 * One Digest's history: the runs Create or Re-Run's One Item per Site keeps (History Store → Data
 * Table), read once for every site of the account through the home's reader (`reader` of
 * history/stores.ts). Read only: the digest never writes.
 */

/** Where the digest says to turn its changes and issue ages on, when History Store is off. */
export const HISTORY_OFF_NOTE =
	'Changes and issue ages are off: set History Store to Data Table in this node, with the table Create or Re-Run (One Item per Site, History Store → Data Table) writes each site’s runs to.';

export interface DigestHistory {
	/** Each site's runs, by site; null when History Store is off. */
	runs: Map<string, DatedRun[]> | null;
	/** What the digest says about its history: null when every site's could be read. */
	note: string | null;
}

/** The runs of `sites` in the history (one read), or why there are none; a table that cannot be read stops the item with what to fix. */
export async function readDigestHistory(
	ctx: IExecuteSingleFunctions,
	sites: readonly string[],
): Promise<DigestHistory> {
	const home = historyHomeOf(ctx, 'digest');
	if (!home) return { runs: null, note: HISTORY_OFF_NOTE };
	return await home.reader
		.read(ctx, sites)
		.catch((error: unknown) =>
			Promise.reject(
				isTableProblem(error)
					? inputProblem(ctx, `${error.message}. The digest was not made.`, error.description ?? '')
					: error,
			),
		);
}
