import type { ResultClass } from '../api';

/*
 * The shapes of a whole-site answer, declared once: what `figures.ts` computes, `text.ts` writes for
 * people and Simplify flattens (by each field's kind: every list field has its flattener, or `tsc`
 * fails), for Get Health and Create or Re-Run's One Item per Site alike. Type aliases, not
 * interfaces, so that an item is an n8n `IDataObject` as it is.
 */

/** A check and on how many pages it concerns (with Search Console Data, their clicks and impressions). */
export type CheckCount = { check: string; importance: string; pages: number } & Partial<Affected>;

/** A set of pages' Search Console clicks and impressions. */
export type Traffic = { clicks: number; impressions: number };

/** The Search Console clicks and impressions of the pages a problem concerns. */
export type Affected = { clicks_affected: number; impressions_affected: number };

/** With Search Console Data: the site's clicks and impressions, coverage, and what to fix first. */
export type SiteTraffic = {
	traffic_clicks: number;
	traffic_impressions: number;
	/** The data's period in words (`from 2026-10-01 to 2026-10-28`, `in the last 28 days`); null: not given. */
	traffic_period: string | null;
	/** Pages the data has clicks or impressions of; the others count 0. */
	pages_with_traffic: number;
	/** pages_with_traffic in % of the site's pages (null: no page). */
	traffic_coverage: number | null;
	pages_without_traffic: string[];
	failing_checks: Array<CheckCount & Affected>;
	/** The failing checks by clicks affected, most first; importance, impressions, pages, name break ties. */
	fix_first: Array<CheckCount & Affected>;
	/** The worst pages, each with its clicks and impressions. */
	worst_pages: Array<PageEntry & Traffic>;
	groups?: Array<GroupFigures & Affected & { breaches: Array<Breach & Affected> }>;
	/** Each breach with the clicks and impressions of every page breaking it. */
	breaches?: Array<Breach & Affected>;
};

/** One Digest's site with Search Console Data: its clicks, coverage, the clicks of its pages failing any check, its first fix. */
export type DigestTraffic = Pick<
	SiteTraffic,
	'traffic_clicks' | 'traffic_impressions' | 'pages_with_traffic' | 'traffic_coverage'
> &
	Affected & { fix_first: (CheckCount & Affected) | null };

/** The account's first fixes (One Digest with Search Console Data): each site's, most clicks first. */
export type DigestTrafficTotals = Pick<
	SiteTraffic,
	| 'traffic_clicks'
	| 'traffic_impressions'
	| 'traffic_period'
	| 'pages_with_traffic'
	| 'traffic_coverage'
> &
	Affected & { fix_first: Array<{ project: string } & CheckCount & Affected> };

/** A page as lists of pages show it: its report's ID, URL, score, class and link. */
export type PageEntry = {
	id: string | number | null;
	url: string | null;
	score: number | null;
	result_class: ResultClass | null;
	link: string;
	/** Its page group, when Page Groups are set. */
	group?: string;
	/** With Search Console Data: its clicks and impressions (0 without data). */
	clicks?: number;
	impressions?: number;
};

/** A re-run page whose score fell, and by how much. */
export type DropEntry = Omit<PageEntry, 'result_class'> & { score_change: number | null };

/** A page phpRank could not analyse in the run, and why. */
export type FailedPage = { url: string; reason: string };

/** The health of a site's pages (one report a page). */
export type SiteHealth = {
	pages: number;
	average_score: number | null;
	median_score: number | null;
	result_class: ResultClass | null;
	health_score: number | null;
	good_pages: number;
	decent_pages: number;
	bad_pages: number;
	failing_checks: CheckCount[];
	top_issues: string[];
	worst_pages: PageEntry[];
	analysed_from: string | null;
	analysed_to: string | null;
};

/** Get Health's site: the project and its health. */
export type SiteFigures = { project: string } & SiteHealth;

/** What a Create or Re-Run run did to a site, before its health. */
export type RunChanges = {
	created: number;
	rerun: number;
	previous_average_score: number | null;
	average_change: number | null;
	worse_pages: number;
	better_pages: number;
	newly_failing_checks: CheckCount[];
	newly_fixed_checks: CheckCount[];
	biggest_drops: DropEntry[];
};

/** Create or Re-Run's site (One Item per Site) before its history: the run's changes and the health. */
export type SiteSummary = SiteFigures &
	RunChanges & { failed_pages: FailedPage[] } & Partial<SiteGroups> &
	Partial<Omit<SiteTraffic, 'failing_checks' | 'groups' | 'worst_pages' | 'breaches'>>;

/** What `summary_text` and `summary_html` read: a site's figures, with a run's changes when it had one. */
export type SiteText = SiteFigures &
	Partial<RunChanges> & { failed_pages?: FailedPage[] } & Partial<SiteGroups & GroupChanges> &
	Partial<Omit<SiteTraffic, 'failing_checks' | 'groups' | 'worst_pages' | 'breaches'>>;

/** The keys of T whose values are lists. */
type ListKeys<T> = {
	[K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[] ? K : never;
}[keyof T];

/** How Simplify writes each list field of T as one line of text: every list field has one. */
export type Flatteners<T> = { [K in ListKeys<T>]-?: (value: NonNullable<T[K]>) => string };

/** T as Simplify outputs it: each list as text. */
export type Flat<T> = { [K in keyof T]: K extends ListKeys<T> ? string : T[K] };

/** An item with each list field written as text by its flattener; other fields as they are. */
export function flatten<T extends object>(item: T, flatteners: Flatteners<NoInfer<T>>): Flat<T> {
	const out: Record<string, unknown> = {};
	const by = flatteners as Record<string, ((value: unknown) => string) | undefined>;
	for (const [name, value] of Object.entries(item)) {
		const flattener = by[name];
		out[name] = flattener && Array.isArray(value) ? flattener(value) : value;
	}
	return out as Flat<T>;
}

/** One site of Get Health's One Digest (All Projects): its figures now, its changes and oldest issue from its history. */
export type DigestSite = {
	project: string;
	health_score: number | null;
	average_score: number | null;
	result_class: ResultClass | null;
	pages: number;
	/** The average now less the one four runs before (History Store → Data Table; else null). */
	change_4_runs: number | null;
	/** The average now less the first run's of the last 30 days (History Store → Data Table; else null). */
	change_30_days: number | null;
	/** Checks of high importance failing on at least one page now. */
	open_high_issues: number;
	/** The check failing longest without a break, `title (high)` (History Store → Data Table; else null). */
	oldest_issue: string | null;
	oldest_issue_since: string | null;
	/** Whole days from the issue's first failing run to the site's newest analysis. */
	oldest_issue_days: number | null;
	last_analysed: string | null;
	days_since_analysis: number | null;
	/** No analysis for Stale After days or more. */
	stale: boolean;
	/** When the history table last had a run of the site written (ISO; null: none, or History Store off). */
	last_audit: string | null;
	/** A run written within Audited Within days (null: History Store off, nobody knows). */
	audited: boolean | null;
	/** The site's reports on the phpRank instance. */
	link: string;
	/** With Page Groups: the groups over budget now (the site's reports as they are). */
	broken_groups?: string[];
} & Partial<DigestTraffic>;

/** A site One Digest names as not audited: its last run kept, and why in words. */
export type NotAudited = { project: string; last_audit: string | null; reason: string };

/** The account as One Digest sums it up. */
export type DigestTotals = {
	total_sites: number;
	total_pages: number;
	/** The average score over every page of every site. */
	average_score: number | null;
	/** Sites whose average fell (rose) since four runs before: null without a history. */
	worse_sites: number | null;
	better_sites: number | null;
	stale_sites: number;
	/** Sites with no run in the history table within Audited Within days (null: History Store off). */
	not_audited_sites: number | null;
	/** With Page Groups: sites with a group over budget, and such groups over all sites. */
	sites_over_budget?: number;
	broken_groups?: number;
} & Partial<DigestTrafficTotals>;

/** Get Health's One Digest: one item for the whole account, its sites worst first. */
export type Digest = DigestTotals & {
	sites: DigestSite[];
	stale_after_days: number;
	/** The sites not audited within `audited_within_days` (History Store → Data Table), longest unaudited first. */
	not_audited: NotAudited[];
	audited_within_days: number | null;
	/** Where to turn on the changes and issue ages, when they are off (null when they are on). */
	history_note: string | null;
	summary_text: string;
	/** With Site Options → E-Mail HTML only. */
	summary_html?: string;
};

/** A budget's rule: a score or a share of bad pages a group must hold, or a check its pages must pass. */
export type BudgetRule =
	| 'min_average_score'
	| 'min_health_score'
	| 'max_bad_share'
	| 'max_bad_pages'
	| 'required_check';

/** What a group of pages is held to; null: no such rule. Shares are percentages of the group's pages. */
export type GroupBudget = {
	min_average_score: number | null;
	min_health_score: number | null;
	max_bad_share: number | null;
	max_bad_pages: number | null;
	/** Checks that must pass on at least `share` % of the group's pages. */
	required_checks: Array<{ check: string; share: number }>;
};

/** A rule a group breaks: its limit, what the group has (a share in %, a score or a count: the exact figure to hundredths) and the pages that break it, worst first. */
export type Breach = {
	group: string;
	rule: BudgetRule;
	/** The required check (rule `required_check` only). */
	check?: string;
	limit: number;
	actual: number | null;
	/** The breach in words, e.g. `products: meta_description fails on 212 of 240 pages (…)`. */
	text: string;
	pages: PageEntry[];
};

/** A group's page as lists name it: with its group. */
export type GroupPage = PageEntry & { group: string };

/** One group of a site's pages: its figures (as a site's), its budget, whether it holds, and how not. */
export type GroupFigures = Omit<SiteHealth, 'failing_checks' | 'worst_pages'> &
	Partial<Affected> & {
		name: string;
		/** The URL pattern (null for Other). */
		pattern: string | null;
		/** Each failing check with the share (%) of the group's pages it fails on. */
		failing_checks: Array<CheckCount & { share: number }>;
		worst_pages: GroupPage[];
		budget: GroupBudget;
		passed: boolean;
		breaches: Breach[];
	};

/** A site's page groups (Page Groups set): each group, and the budgets summed up. */
export type SiteGroups = {
	groups: GroupFigures[];
	/** Whether every group holds its budget. */
	budgets_passed: boolean;
	broken_groups: string[];
	/** Every broken group's breaches, in the groups' order. */
	breaches: Breach[];
};

/** Since the previous production run (Create or Re-Run with a history): groups whose budget broke, and that recovered. */
export type GroupChanges = {
	/** With no run before (false): every group over budget now. */
	groups_newly_broken: string[];
	groups_recovered: string[];
	/** Whether a production run with Page Groups came before this one, to compare with. */
	groups_run_before: boolean;
};
