import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { BOUNDS, describeValue } from '../bounds';
import { boundedOption, fail } from '../input';
import { importanceRank } from '../report';
import { groupPlace, pageGroupSettings } from '../site/pageGroups';
import { plural, thousands } from '../site/text';
import type { CheckCount, PageEntry } from '../site/types';
import { runOf } from '../transport/run';
import { siteIssues, streakStart } from './issues';
import { isoDate, KEY_SEPARATOR, ofGroupCheck, type SiteHistory } from './model';
import { findingKey, ticketedChecks, type Ticket } from './tickets';

/*
 * Findings (Output → One Item per Finding Change): a finding is one failing check on one site,
 * keyed `site · check`, or with Ticket Per → Page Group on one page group, keyed `site · group ·
 * check` (its history the groups' runs, each check named `group · check`, history/model.ts), or
 * with Ticket Per → Page on one page, keyed `site · /path · check` (its pages' runs likewise). Its
 * events come from that history with this run added, so they are
 * kept where the history is, survive a node rename as it does, cost no request, and a later try of
 * the same execution (Retry On Fail replaces its record) gives the same events. Pure but for the
 * settings' reader.
 */

const DAY_SECONDS = 24 * 3600;
const WORST_PAGES = 5;

export type FindingEvent = 'opened' | 'resolved' | 'regressed' | 'reminder';

/** Ticket Per: a finding a site's failing check, a page group's, or a page's. */
export type TicketPer = 'site' | 'group' | 'page';
const TICKET_PER: readonly unknown[] = ['site', 'group', 'page'];

export interface FindingSettings {
	/** The flood guard: at most this many opened and regressed items a run, high importance first. */
	maxNew: number;
	/** A reminder each time an open finding's age passes a multiple of this many days (0: none). */
	remindDays: number;
	/** Repeat Until Ticket Recorded: opened at each run until a ticket is recorded; resolved only with one. */
	untilRecorded: boolean;
	per: TicketPer;
	/** Another execution's run landed just before this one (history/claim.ts): it opens what fails without a ticket, this one only what starts failing. */
	landed?: boolean;
}

/** A page of this run as a finding lists it: its entry and the checks it failed. */
export type FindingPage = PageEntry & { failing: string[] };

export type FindingItem = {
	key: string;
	event: FindingEvent;
	site: string;
	/** Ticket Per → Page Group: the page group. */
	group?: string;
	/** Ticket Per → Page: the page, its path (`/products/a`). */
	page?: string;
	check: string;
	importance: string | null;
	failing_pages: number;
	/** With Search Console Data: the clicks and impressions of the pages it fails on (0 once resolved). */
	clicks_affected?: number;
	impressions_affected?: number;
	worst_pages: Array<Pick<PageEntry, 'url' | 'score' | 'link'>>;
	first_seen: string;
	age_runs: number;
	age_days: number;
	title: string;
	body: string;
	ticket: Ticket | null;
};

/** What the flood guard held back, as one item: each finding's key, to open one ticket for all. */
export type HeldItem = {
	event: 'held';
	site: string;
	held: number;
	keys: string[];
	title: string;
	body: string;
};

/** Ticket Per as set: Page Group only for a site with Page Groups (their names), else the item stops naming both. */
function ticketPer(
	ctx: IExecuteSingleFunctions,
	value: unknown,
	groups: readonly string[],
): TicketPer {
	const per = value ?? 'site';
	if (!TICKET_PER.includes(per))
		fail(
			ctx,
			`Finding Options → Ticket Per must be Site, Page Group or Page, not ${describeValue(per)}`,
			'Set Ticket Per to Site (a finding per failing check of the site), Page Group or Page.',
		);
	if (per === 'group' && groups.length === 0)
		fail(
			ctx,
			'Finding Options → Ticket Per is Page Group, but no Page Groups are set',
			'Add Page Groups (e.g. Products with the URL Pattern /products/**), or set Ticket Per to Site.',
		);
	// A finding's key names a page by its path (perOfName): a group named like one would be taken for it.
	const pathLike = per === 'group' ? groups.findIndex((name) => name.startsWith('/')) : -1;
	if (pathLike !== -1)
		fail(
			ctx,
			`${groupPlace(pathLike, groups[pathLike])} → Name starts with /: with Ticket Per → Page Group, finding keys would read it as a page`,
			'Name the group in words (e.g. Blog for /blog/**), or set Ticket Per to Page.',
		);
	return per as TicketPer;
}

/**
 * The item's Finding Options with Output → One Item per Finding Change (else undefined), read and
 * checked once per item and try (`Run.setting`); a bad value stops the item naming the field.
 */
export const findingsOf = (ctx: IExecuteSingleFunctions): FindingSettings | undefined =>
	runOf(ctx).setting(ctx.getItemIndex(), 'findings', () =>
		ctx.getNodeParameter('output', 'pages') === 'findings'
			? findingSettings(
					ctx,
					pageGroupSettings(ctx).groups.map(({ name }) => name),
				)
			: undefined,
	);

/** Whether the run's findings are per page (Ticket Per → Page): its pages' runs are kept. */
export const ticketPerPage = (ctx: IExecuteSingleFunctions) => findingsOf(ctx)?.per === 'page';

/** Finding Options as set (`groups`: the Page Groups' names). */
function findingSettings(ctx: IExecuteSingleFunctions, groups: readonly string[]): FindingSettings {
	const options = ctx.getNodeParameter('findingOptions', {}) as IDataObject;
	const read = (name: 'maxNewTickets' | 'remindAfterDays', value: unknown) => {
		const { low, high, label } = BOUNDS[name];
		return boundedOption(
			ctx,
			name,
			value ?? BOUNDS[name].default,
			`Set ${label} under Finding Options to a whole number from ${low} to ${high}.`,
			'Finding Options',
		);
	};
	return {
		maxNew: Math.round(read('maxNewTickets', options.maxNewTickets)),
		remindDays: Math.round(read('remindAfterDays', options.remindAfterDays)),
		untilRecorded: options.untilTicketRecorded !== false,
		per: ticketPer(ctx, options.ticketPer, groups),
	};
}

/** When the check first failed in the kept history (its streak carried from a dropped record counts). */
function firstSeen(history: SiteHistory, check: string): number | undefined {
	const carried = history.carried.get(check);
	if (carried) return carried.at;
	return history.records.find(({ failing }) => failing.includes(check))?.at;
}

interface Change {
	event: FindingEvent;
	check: string;
	importance: string | null;
	pages: number;
	since: number;
	runs: number;
}

type TicketOf = (check: string) => Ticket | undefined;

/**
 * The events of the newest run. A finding starting to fail is opened, or regressed when it failed
 * before its streak (with Repeat Until Ticket Recorded: when it has a ticket); with that option a
 * failing finding with no ticket is opened again at each run (not after a run that `landed`: that
 * one's execution opens it), and only one with a ticket resolves.
 */
function changesOf(
	history: SiteHistory,
	failing: readonly CheckCount[],
	{ remindDays, untilRecorded, landed }: FindingSettings,
	ticketOf: TicketOf,
	ticketed: readonly string[],
): Change[] {
	const last = history.records.length - 1;
	if (last < 0) return [];
	if (last === 0 && ticketed.length > 0) return startedOver(history, failing, ticketOf, ticketed);
	const issues = siteIssues(history, failing);
	const fresh = new Set((last === 0 ? failing : issues.new_issues).map(({ check }) => check));
	const newest = history.records[last];
	const changes: Change[] = [];
	for (const issue of issues.open_issues) {
		const since = streakStart(history, issue.check, last).at;
		const change = { ...issue, since, runs: issue.age_runs };
		const ticket = ticketOf(issue.check);
		const before = untilRecorded
			? ticket !== undefined
			: last > 0 && firstSeen(history, issue.check) !== newest.at;
		if (fresh.has(issue.check) && (before || !untilRecorded))
			changes.push({ ...change, event: before ? 'regressed' : 'opened' });
		else if (untilRecorded && ticket === undefined) {
			if (!landed || fresh.has(issue.check)) changes.push({ ...change, event: 'opened' });
		} else if (remindDays > 0 && last > 0 && issue.age_runs > 1) {
			const previous = history.records[last - 1].at;
			const was = Math.floor((previous - since) / DAY_SECONDS / remindDays);
			if (Math.floor(issue.age_days / remindDays) > was)
				changes.push({ ...change, event: 'reminder' });
		}
	}
	for (const { check, age_runs } of issues.resolved_issues) {
		if (untilRecorded && ticketOf(check) === undefined) continue;
		const since = streakStart(history, check, last - 1).at;
		changes.push({ event: 'resolved', check, importance: null, pages: 0, since, runs: age_runs });
	}
	return changes;
}

/**
 * A history that starts with tickets already recorded (This Workflow after a node rename keeps
 * the workflow's tickets, not the node's runs): a failing finding with a ticket is still open, no
 * event; one that passes now is resolved; a failing one without a ticket is opened.
 */
function startedOver(
	history: SiteHistory,
	failing: readonly CheckCount[],
	ticketOf: TicketOf,
	ticketed: readonly string[],
): Change[] {
	const at = history.records[0].at;
	const open = siteIssues(history, failing).open_issues.filter(
		({ check }) => ticketOf(check) === undefined,
	);
	const fails = new Set(failing.map(({ check }) => check));
	return [
		...open.map((issue) => ({
			...issue,
			since: at,
			runs: issue.age_runs,
			event: 'opened' as const,
		})),
		...ticketed
			.filter((check) => !fails.has(check))
			.map((check) => ({
				event: 'resolved' as const,
				check,
				importance: null,
				pages: 0,
				since: at,
				runs: 0,
			})),
	];
}

const TITLES: Record<FindingEvent, string> = {
	opened: 'fails',
	regressed: 'fails again',
	resolved: 'passes again',
	reminder: 'still fails',
};

/** Where a finding is: its site, and its page group or page (`shop.example.com/products/a`). */
const placeOf = ({ site, group, page }: Pick<FindingItem, 'site' | 'group' | 'page'>) =>
	page !== undefined
		? `${site}${page}`
		: group === undefined
			? site
			: `${site} (page group ${group})`;

/** With Search Console Data: `, with 1,750 clicks and 40,000 impressions in the last 28 days`. */
const trafficText = (
	{ clicks_affected: clicks, impressions_affected: impressions }: Omit<FindingItem, 'body'>,
	period?: string | null,
) =>
	clicks === undefined
		? ''
		: `, with ${thousands(clicks)} clicks and ${thousands(impressions ?? 0)} impressions ${period ?? 'in the Search Console Data'}`;

/** A ready Markdown body: what fails, where, since when, and where to read how to fix it. */
function bodyOf(item: Omit<FindingItem, 'body'>, day: string, period?: string | null): string {
	const place = placeOf(item);
	const onePage = item.page !== undefined;
	const pages = item.worst_pages.map(
		({ url, score, link }) => `- [${url ?? link}](${link}) (score ${score ?? '–'})`,
	);
	const failsOn = onePage ? 'the page ' : `${plural(item.failing_pages, 'page')} of `;
	const where =
		item.event === 'resolved'
			? [`The check **${item.check}** passes on every analysed page of ${place} since ${day}.`]
			: [
					`The check **${item.check}** (${item.importance ?? 'unknown'} importance) fails on ${failsOn}${place}${trafficText(item, period)}.`,
					'',
					onePage ? 'Its report:' : 'Failing pages (worst first):',
					...pages,
					'',
					'How to fix: open a page’s phpRank report above; its check says what is wrong and what to change. A fix in a shared template fixes every page at once.',
				];
	const age = `${plural(item.age_runs, 'run')}, ${item.age_days} days`;
	return [
		...where,
		'',
		`First seen ${item.first_seen.slice(0, 10)}; ${age}. Finding: \`${item.key}\``,
	].join('\n');
}

/** The flood guard's one item: the findings held back, by key, for one ticket. */
function heldItem(site: string, held: readonly FindingItem[]): HeldItem {
	return {
		event: 'held',
		site,
		held: held.length,
		keys: held.map(({ key }) => key),
		title: `SEO: ${held.length} more findings on ${site}`,
		body: [
			`${held.length} more checks fail on ${site} (Max New Tickets held them back):`,
			...held.map(
				({ group, page, check, importance, failing_pages }) =>
					`- **${(page ?? group) === undefined ? '' : `${page ?? group}: `}${check}** (${importance ?? 'unknown'}): ${failing_pages} page${failing_pages === 1 ? '' : 's'}`,
			),
		].join('\n'),
	};
}

/**
 * New work first (opened, regressed), then by the clicks of the pages it fails on (with Search
 * Console Data: README's fix-first rule), importance, pages and name.
 */
const byUrgency =
	(clicks: (check: string) => number) =>
	(a: Change, b: Change): number => {
		const rank = (change: Change) =>
			change.event === 'opened' || change.event === 'regressed' ? 0 : 1;
		return (
			rank(a) - rank(b) ||
			clicks(b.check) - clicks(a.check) ||
			importanceRank(a.importance ?? '') - importanceRank(b.importance ?? '') ||
			b.pages - a.pages ||
			a.check.localeCompare(b.check)
		);
	};

/** With Search Console Data, a failing check's clicks and impressions (0 for one not failing now); without, none. */
function trafficOfChecks(failing: readonly CheckCount[]) {
	const counts = new Map(failing.map((count) => [count.check, count]));
	const traffic = failing.some(({ clicks_affected }) => clicks_affected !== undefined);
	return (check: string | null): Pick<FindingItem, 'clicks_affected' | 'impressions_affected'> => {
		if (!traffic) return {};
		const count = check === null ? undefined : counts.get(check);
		return {
			clicks_affected: count?.clicks_affected ?? 0,
			impressions_affected: count?.impressions_affected ?? 0,
		};
	};
}

/** The Ticket Per a finding's name (its key without the site) is of: a page's path starts with `/`. */
const perOfName = (name: string): TicketPer =>
	!name.includes(KEY_SEPARATOR) ? 'site' : name.startsWith('/') ? 'page' : 'group';

/**
 * One item per finding that changed in the newest run, then (flood guard) one item for what was
 * held back. Ticket Per → Page Group: `history` is the groups' and the checks of `failing` and
 * `pages` are named `group · check`; Ticket Per → Page likewise, `page · check`.
 */
export function findingItems(
	site: string,
	history: SiteHistory,
	{
		failing,
		pages,
		period,
	}: { failing: readonly CheckCount[]; pages: readonly FindingPage[]; period?: string | null },
	settings: FindingSettings,
	tickets: ReadonlyMap<string, Ticket>,
): Array<FindingItem | HeldItem> {
	const newest = history.records[history.records.length - 1];
	if (!newest) return [];
	const ticketOf = (check: string) => tickets.get(findingKey(site, check));
	const byUnit = settings.per !== 'site';
	// The tickets of findings of this Ticket Per only: another's are not this run's to resolve.
	const ticketed = ticketedChecks(tickets, site).filter((name) => perOfName(name) === settings.per);
	const affected = trafficOfChecks(failing);
	const clicksOf = (check: string) => affected(check).clicks_affected ?? 0;
	const changes = changesOf(history, failing, settings, ticketOf, ticketed).sort(
		byUrgency(clicksOf),
	);
	const items = changes.map((change): FindingItem => {
		const key = findingKey(site, change.check);
		const { group: unit, check } = byUnit ? ofGroupCheck(change.check) : { check: change.check };
		const [group, page] = settings.per === 'page' ? [undefined, unit] : [unit, undefined];
		const worst = pages
			.filter(({ failing: checks }) => checks.includes(change.check))
			.sort(
				(a, b) => (a.score ?? 101) - (b.score ?? 101) || String(a.url).localeCompare(String(b.url)),
			)
			.slice(0, WORST_PAGES)
			.map(({ url, score, link }) => ({ url, score, link }));
		const item = {
			key,
			event: change.event,
			site,
			...(group === undefined ? {} : { group }),
			...(page === undefined ? {} : { page }),
			check,
			importance: change.importance,
			failing_pages: change.pages,
			...affected(change.event === 'resolved' ? null : change.check),
			worst_pages: worst,
			first_seen: isoDate(firstSeen(history, change.check) ?? change.since),
			age_runs: change.runs,
			age_days: Math.floor((newest.at - change.since) / DAY_SECONDS),
			title: `SEO: ${check} ${TITLES[change.event]} on ${placeOf({ site, group, page })}`,
			ticket: ticketOf(change.check) ?? null,
		};
		return { ...item, body: bodyOf(item, isoDate(newest.at).slice(0, 10), period) };
	});
	const fresh = items.filter(({ event }) => event === 'opened' || event === 'regressed');
	const held = fresh.slice(settings.maxNew);
	if (!held.length) return items;
	return [...items.filter((item) => !held.includes(item)), heldItem(site, held)];
}
