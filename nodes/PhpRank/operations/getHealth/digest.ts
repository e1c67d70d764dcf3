import type { IDataObject } from 'n8n-workflow';

import { classify } from '../../report';
import { siteIssues } from '../../history/issues';
import {
	addRun,
	type DatedRun,
	historyOfRuns,
	runRecord,
	type RunRecord,
	type SiteHistory,
} from '../../history/model';
import { mean, newestPerUrl, siteHealth } from '../../site/figures';
import { plural } from '../../site/text';
import { withGroups } from '../../site/groups';
import type { PageGroupSettings } from '../../site/pageGroups';
import { coverage, digestTraffic, fixFirst, type SearchConsoleRows } from '../../site/traffic';
import type {
	Affected,
	Digest,
	DigestSite,
	DigestTotals,
	DigestTrafficTotals,
	NotAudited,
	SiteHealth,
} from '../../site/types';
import type { DigestSettings } from './checks';
import type { DigestHistory } from './digestHistory';
import { digestHtml, digestText } from './digestText';

/*
 * Get Health, All Projects, One Digest: every site of the account ranked worst first, with its
 * changes and oldest open issue from its history (the rows Create or Re-Run's One Item per Site
 * writes to a data table), and the account's totals. Pure: the reports and rows come read.
 * A site's runs: its rows analysed before its newest analysis, then its figures now (the row of
 * that same analysis, if any, is now's). `change_4_runs` is now less the run four before it, as
 * Create or Re-Run's site item counts it; `change_30_days` now less the first run of the last 30
 * days. `digest` puts the sites, worst first, the totals and the messages (digestText.ts) in one item.
 */

const DAY_MS = 24 * 3600 * 1000;
const MONTH_DAYS = 30;

export interface DigestOptions {
	staleAfterDays: number;
	/** A site with no run written to the history within this many days is not audited. */
	auditedWithinDays: number;
	/** Milliseconds since 1970: the digest's moment. */
	now: number;
	/** A report's page on the instance, from its ID. */
	reportLink: (id: unknown) => string;
	/** A site's reports on the instance. */
	siteLink: (project: string) => string;
	/** Page Groups and Default Budget (no groups: none judged). */
	groups: PageGroupSettings;
	/** Search Console Data: the rows of every site, each site's pages matched by URL. */
	traffic?: SearchConsoleRows;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const change = (from: RunRecord | undefined, to: RunRecord) =>
	from && typeof from.average === 'number' && typeof to.average === 'number'
		? round1(to.average - from.average)
		: null;

/** The site's runs: those of the table analysed before now's figures, then now's. */
function runsNow(runs: readonly DatedRun[], health: SiteHealth, now: number): SiteHistory {
	const current = runRecord(health, now / 1000);
	const before = runs.filter(({ record }) => record.at < current.at);
	return addRun(historyOfRuns(before), current, '');
}

type HistoryPart = Pick<
	DigestSite,
	'change_4_runs' | 'change_30_days' | 'oldest_issue' | 'oldest_issue_since' | 'oldest_issue_days'
>;

const NO_HISTORY: HistoryPart = {
	change_4_runs: null,
	change_30_days: null,
	oldest_issue: null,
	oldest_issue_since: null,
	oldest_issue_days: null,
};

/** What the site's history says: its changes and its oldest open issue. */
function historyPart(runs: readonly DatedRun[], health: SiteHealth, now: number): HistoryPart {
	const history = runsNow(runs, health, now);
	const { records } = history;
	const newest = records[records.length - 1];
	const monthAgo = (now - MONTH_DAYS * DAY_MS) / 1000;
	const firstOfMonth = records.find(({ at }) => at >= monthAgo);
	const [oldest] = siteIssues(history, health.failing_checks).open_issues;
	return {
		change_4_runs: change(records[records.length - 5], newest),
		change_30_days: firstOfMonth === newest ? null : change(firstOfMonth, newest),
		oldest_issue: oldest ? `${oldest.check} (${oldest.importance})` : null,
		oldest_issue_since: oldest?.failing_since ?? null,
		oldest_issue_days: oldest?.age_days ?? null,
	};
}

/** When a run of the site was last written to the history table (its row's date, else its analysis's), and whether within Audited Within days; History Store off: nobody knows. */
function auditPart(
	runs: readonly DatedRun[] | null,
	options: DigestOptions,
): Pick<DigestSite, 'last_audit' | 'audited'> {
	if (runs === null) return { last_audit: null, audited: null };
	const newest = runs.reduce((max, { written, record }) => Math.max(max, written ?? record.at), -1);
	if (newest < 0) return { last_audit: null, audited: false };
	return {
		last_audit: new Date(newest * 1000).toISOString(),
		audited: options.now - newest * 1000 < options.auditedWithinDays * DAY_MS,
	};
}

/** One site of the digest from its reports, and its rows when History Store is on (else null; none: no history yet). */
export function digestSite(
	project: string,
	records: IDataObject[],
	runs: readonly DatedRun[] | null,
	options: DigestOptions,
): DigestSite {
	const pages = newestPerUrl(records);
	const siteOptions = { worstPages: 1, minChange: 0, link: options.reportLink };
	const health = siteHealth(pages, siteOptions);
	const { broken_groups } = withGroups(pages, health, options.groups, siteOptions);
	const last = health.analysed_to === null ? NaN : Date.parse(health.analysed_to);
	const days = Number.isFinite(last) ? Math.floor((options.now - last) / DAY_MS) : null;
	return {
		project,
		health_score: health.health_score,
		average_score: health.average_score,
		result_class: health.result_class,
		pages: health.pages,
		...(runs?.length ? historyPart(runs, health, options.now) : NO_HISTORY),
		open_high_issues: health.failing_checks.filter(({ importance }) => importance === 'high')
			.length,
		last_analysed: health.analysed_to,
		days_since_analysis: days,
		stale: days === null || days >= options.staleAfterDays,
		...auditPart(runs, options),
		link: options.siteLink(project),
		...(broken_groups ? { broken_groups } : {}),
		...(options.traffic && digestTraffic(pages, options.traffic, health)),
	};
}

/** Ascending, a missing value first. */
const lowFirst = (a: number | null, b: number | null) =>
	a === b ? 0 : a === null ? -1 : b === null ? 1 : a - b;

/**
 * Worst first: the most page groups over budget (with Page Groups), then the lowest health score (the share of pages without a failed high-importance check:
 * a page with a real problem is what needs a person), then the lowest average (many good pages can
 * hide a broken one in the average, not in the health score), then the name; a site with no score
 * first (nobody knows how it is doing).
 */
export function worstFirst(a: DigestSite, b: DigestSite): number {
	return (
		(b.broken_groups?.length ?? 0) - (a.broken_groups?.length ?? 0) ||
		lowFirst(a.health_score, b.health_score) ||
		lowFirst(a.average_score, b.average_score) ||
		a.project.localeCompare(b.project)
	);
}

/** The account's totals; the average over every page of every site (`records`: all reports read). */
export function digestTotals(
	sites: readonly DigestSite[],
	records: IDataObject[],
	history: boolean,
): DigestTotals {
	const scores = newestPerUrl(records)
		.map((record) => classify(record.result).score)
		.filter((score): score is number => score !== null);
	const moved = (sign: number) =>
		history ? sites.filter((site) => Math.sign(site.change_4_runs ?? 0) === sign).length : null;
	return {
		total_sites: sites.length,
		total_pages: sites.reduce((sum, site) => sum + site.pages, 0),
		average_score: mean(scores),
		worse_sites: moved(-1),
		better_sites: moved(1),
		stale_sites: sites.filter((site) => site.stale).length,
		not_audited_sites: history ? sites.filter((site) => site.audited === false).length : null,
		...budgetTotals(sites),
	};
}

/** With Search Console Data: the account's clicks, those on pages failing a check, and each site's first fix, most clicks first. */
function trafficTotals(sites: readonly DigestSite[], rows: SearchConsoleRows): DigestTrafficTotals {
	type Summed = 'traffic_clicks' | 'traffic_impressions' | 'pages_with_traffic' | 'pages';
	const sum = (field: Summed | keyof Affected) =>
		sites.reduce((total, site) => total + (site[field] ?? 0), 0);
	const fixes = [...sites]
		.sort((a, b) => a.project.localeCompare(b.project))
		.flatMap(({ project, fix_first }) => (fix_first ? [{ project, ...fix_first }] : []));
	return {
		traffic_clicks: sum('traffic_clicks'),
		traffic_impressions: sum('traffic_impressions'),
		traffic_period: rows.period ?? null,
		pages_with_traffic: sum('pages_with_traffic'),
		traffic_coverage: coverage(sum('pages_with_traffic'), sum('pages')),
		clicks_affected: sum('clicks_affected'),
		impressions_affected: sum('impressions_affected'),
		fix_first: fixFirst(fixes),
	};
}

/** With Page Groups: how many sites have a group over budget, and how many such groups in all. */
function budgetTotals(sites: readonly DigestSite[]): Partial<DigestTotals> {
	if (!sites.some((site) => site.broken_groups)) return {};
	return {
		sites_over_budget: sites.filter((site) => site.broken_groups?.length).length,
		broken_groups: sites.reduce((sum, site) => sum + (site.broken_groups?.length ?? 0), 0),
	};
}

/** The sites not audited, never audited first, then the longest since; each with why, in words. */
export function notAudited(sites: readonly DigestSite[], now: number): NotAudited[] {
	const since = (site: DigestSite) => (site.last_audit ? Date.parse(site.last_audit) : -1);
	return sites
		.filter((site) => site.audited === false)
		.sort((a, b) => since(a) - since(b) || a.project.localeCompare(b.project))
		.map((site) => {
			const days = Math.floor((now - since(site)) / DAY_MS);
			const reason = site.last_audit
				? `no run kept since ${site.last_audit.slice(0, 10)} (${plural(days, 'day')} ago)`
				: 'no run of this site in the history table';
			const stale = site.stale ? '; no recent analysis in phpRank either' : '';
			return { project: site.project, last_audit: site.last_audit, reason: reason + stale };
		});
}

/** The digest of the account from its reports by site and their history. */
export function digest(
	sites: Map<string, IDataObject[]>,
	history: DigestHistory,
	settings: DigestSettings,
	options: Omit<DigestOptions, 'staleAfterDays' | 'auditedWithinDays'>,
): Digest {
	const all = {
		...options,
		staleAfterDays: settings.staleAfterDays,
		auditedWithinDays: settings.auditedWithinDays,
	};
	const entries = [...sites.entries()]
		.map(([site, records]) => digestSite(site, records, history.runs?.get(site) ?? null, all))
		.sort(worstFirst);
	const head = {
		...digestTotals(entries, [...sites.values()].flat(), history.runs !== null),
		...(options.traffic && trafficTotals(entries, options.traffic)),
		stale_after_days: settings.staleAfterDays,
		audited_within_days: history.runs ? settings.auditedWithinDays : null,
		not_audited: notAudited(entries, options.now),
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
