import type { IDataObject } from 'n8n-workflow';

import { type Flat, flatten, type Digest } from '../site/types';
import type { DigestSettings } from './checks';
import { type DigestOptions, digestSite, digestTotals, worstFirst } from './digest';
import type { DigestHistory } from './digestHistory';
import { DIGEST_FLATTENERS, digestHtml, digestText } from './digestText';

/*
 * One Digest as the node outputs it: the sites worst first, the totals, `summary_text`, and
 * `summary_html` with E-Mail HTML. Simplify writes `sites` as short text; an AI tool gets the
 * message alone (a few lines, not the numbers).
 */

/** The digest item; with Simplify the sites as text. */
export type DigestItem = Digest | Flat<Digest> | { digest: string };

/** The digest of the account from its reports by site and their history. */
export function digest(
	sites: Map<string, IDataObject[]>,
	history: DigestHistory,
	settings: DigestSettings,
	options: Omit<DigestOptions, 'staleAfterDays'>,
): Digest {
	const all = { ...options, staleAfterDays: settings.staleAfterDays };
	const entries = [...sites.entries()]
		.map(([site, records]) => digestSite(site, records, history.runs?.get(site) ?? null, all))
		.sort(worstFirst);
	const head = {
		...digestTotals(entries, [...sites.values()].flat(), history.runs !== null),
		stale_after_days: settings.staleAfterDays,
		history_note: history.note,
	};
	const summary_text = digestText(head, entries);
	return {
		...head,
		sites: entries,
		summary_text,
		...(settings.html ? { summary_html: digestHtml(head, entries, settings.branding) } : {}),
	};
}

/** The digest shaped as Simplify (or an AI tool) wants it. */
export function digestItem(
	item: Digest,
	{ simplify, tool }: { simplify: boolean; tool: boolean },
): DigestItem {
	if (simplify && tool) return { digest: item.summary_text };
	return simplify ? flatten(item, DIGEST_FLATTENERS) : item;
}
