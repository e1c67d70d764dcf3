import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { projectOfUrl } from '../PhpRank/report';
import type { Found, Settings, TriggerEvent } from './events/event';

/*
 * Output: One Item per Site. A poll's found events grouped by site (phpRank project) into one
 * item each, between the event's read and its items: the same requests and state as One Item per
 * Event (ARCHITECTURE.md, "One Item per Site").
 */

/** How many drops `biggest_drops` lists, and `summary_text` names. */
export const BIGGEST_DROPS = 10;
export const DROPS_IN_TEXT = 5;

interface Page {
	/** The event's simplified item. */
	item: IDataObject;
	/** Its item as the settings shape it (Simplify off: the events list holds these). */
	shaped: IDataObject;
	/** Points the score moved since the event's previous reading, if both have a score. */
	change: number | null;
}

const tenths = (value: number) => Math.round(value * 10) / 10;

function scoreChange(item: IDataObject): number | null {
	if (typeof item.score_change === 'number') return item.score_change;
	const { score, previous_score: previous } = item;
	return typeof score === 'number' && typeof previous === 'number'
		? tenths(score - previous)
		: null;
}

const siteOf = ({ project, url }: IDataObject) =>
	typeof project === 'string' && project ? project : projectOfUrl(String(url ?? ''));

const signed = (value: number) => (value > 0 ? `+${value}` : `−${Math.abs(value)}`);

/** A few lines for Slack or an e-mail subject: the counts, then the biggest drops with links. */
function summaryText(site: IDataObject, subtitle: string): string {
	const reasons = Object.entries(site.reasons as Record<string, number>)
		.map(([reason, count]) => `${count} ${reason}`)
		.join(', ');
	const pages = Number(site.event_count);
	const lines = [
		`${String(site.project)}: ${subtitle.toLowerCase()} on ${pages} page${pages === 1 ? '' : 's'} (${reasons}), ${String(site.dropped)} dropped`,
	];
	const drops = (site.biggest_drops as IDataObject[]).slice(0, DROPS_IN_TEXT);
	if (drops.length) {
		const of =
			Number(site.dropped) > drops.length ? ` (${drops.length} of ${String(site.dropped)})` : '';
		const listed = drops.map(
			(page) =>
				`${String(page.url)} ${signed(Number(page.score_change))} to ${String(page.score)} (${String(page.link)})`,
		);
		lines.push(`Biggest drops${of}: ${listed.join('; ')}`);
	}
	return lines.join('\n');
}

/** One site's item: counts by reason, the biggest drops, every event as a line (or item), the text. */
function siteItem(
	event: TriggerEvent,
	settings: Settings<unknown> & { event: string },
	project: string,
	pages: Page[],
): IDataObject {
	const reasons: Record<string, number> = {};
	for (const { item } of pages)
		reasons[String(item.reason)] = (reasons[String(item.reason)] ?? 0) + 1;
	const drops = pages
		.filter((page): page is Page & { change: number } => page.change !== null && page.change < 0)
		.sort((a, b) => a.change - b.change || Number(a.item.id) - Number(b.item.id));
	const site: IDataObject = {
		event: settings.event,
		project,
		event_count: pages.length,
		dropped: drops.length,
		reasons,
		biggest_drops: drops.slice(0, BIGGEST_DROPS).map(({ item, change }) => ({
			id: item.id,
			url: item.url,
			score: item.score,
			score_change: change,
			link: item.link,
		})),
		events: pages.map(({ item, shaped }) => (settings.simplify ? event.siteLine!(item) : shaped)),
	};
	return { ...site, summary_text: summaryText(site, event.subtitle) };
}

/** The worst site first: the most pages dropped, then the deepest drop, the most events, the name. */
function worstFirst(a: IDataObject, b: IDataObject): number {
	const deepest = (site: IDataObject) =>
		Number((site.biggest_drops as IDataObject[])[0]?.score_change ?? 0);
	return (
		Number(b.dropped) - Number(a.dropped) ||
		deepest(a) - deepest(b) ||
		Number(b.event_count) - Number(a.event_count) ||
		String(a.project).localeCompare(String(b.project))
	);
}

/** One item per site for a poll's found events (oldest first within a site), worst site first. */
export async function siteItems(
	this: IPollFunctions,
	event: TriggerEvent,
	settings: Settings<unknown> & { event: string },
	found: Array<Found<unknown>>,
): Promise<IDataObject[]> {
	if (found.length === 0) return [];
	const sites = new Map<string, Page[]>();
	for (const one of found) {
		const item = event.item({ ...settings, simplify: true }, one);
		const shaped = settings.simplify
			? item
			: { event: settings.event, ...event.item(settings, one) };
		const site = siteOf(one.record);
		const pages = sites.get(site) ?? [];
		pages.push({ item, shaped, change: scoreChange(item) });
		sites.set(site, pages);
	}
	return [...sites]
		.map(([project, pages]) => siteItem(event, settings, project, pages))
		.sort(worstFirst);
}
