import type { IDataObject } from 'n8n-workflow';

import { checkStates, classify } from '../report';
import { pageEntry, type SiteOptions, siteHealth } from './figures';
import type {
	Breach,
	BudgetRule,
	GroupBudget,
	GroupChanges,
	GroupFigures,
	GroupPage,
	PageEntry,
	SiteGroups,
	SiteHealth,
} from './types';

/*
 * Page groups and their budgets, pure: each page of a site goes to the first group whose URL
 * pattern matches its path (pages that match none to OTHER_GROUP), each group gets the figures a
 * site gets (figures.ts) and is held to its budget. The pages are assigned in one pass; each group's
 * figures are then read from its own pages only.
 */

/** The group of the pages no pattern matches; a group of this name cannot be declared. */
export const OTHER_GROUP = 'Other';

export type PatternKind = 'path' | 'regex';

/** A group as declared and checked (pageGroupSettings), its pattern compiled. */
export interface PageGroup {
	name: string;
	pattern: string;
	kind: PatternKind;
	budget: GroupBudget;
	matcher: RegExp;
}

/** The budget with no rule: every group passes it. */
export const NO_BUDGET: GroupBudget = {
	min_average_score: null,
	min_health_score: null,
	max_bad_share: null,
	max_bad_pages: null,
	required_checks: [],
};

/** Whether a budget has at least one rule. */
export const hasRules = (budget: GroupBudget) =>
	budget.required_checks.length > 0 ||
	[
		budget.min_average_score,
		budget.min_health_score,
		budget.max_bad_share,
		budget.max_bad_pages,
	].some((limit) => limit !== null);

/**
 * A path pattern as a regular expression over a URL's path: `*` any characters but `/`, `**` any
 * characters, `?` one character but `/`; a trailing `/**` also matches the folder itself
 * (`/products/**` matches `/products`). Everything else stands for itself.
 */
export function pathPattern(pattern: string): RegExp {
	const folder = pattern.endsWith('/**');
	const body = folder ? pattern.slice(0, -3) : pattern;
	const source = body
		.split(/(\*\*|\*|\?)/)
		.map((part) =>
			part === '**'
				? '.*'
				: part === '*'
					? '[^/]*'
					: part === '?'
						? '[^/]'
						: part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
		)
		.join('');
	return new RegExp(`^${source}${folder ? '(?:/.*)?' : ''}$`);
}

/**
 * The part of a report's URL the patterns read: a path pattern its path (`/` for the home page),
 * a regular expression its path and query. phpRank stores URLs without a scheme.
 */
export function urlPath(url: string, kind: PatternKind): string {
	const bare = url.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
	const start = bare.search(/[/?#]/);
	const rest = start === -1 ? '' : bare.slice(start).replace(/#.*$/, '');
	const withSlash = rest.startsWith('/') ? rest : `/${rest}`;
	return kind === 'regex' ? withSlash : withSlash.replace(/\?.*$/, '');
}

/** The name of the first group whose pattern matches the URL, else OTHER_GROUP. */
export function groupOf(url: unknown, groups: readonly PageGroup[]): string {
	const text = String(url ?? '');
	for (const group of groups) {
		if (group.matcher.test(urlPath(text, group.kind))) return group.name;
	}
	return OTHER_GROUP;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const percent = (part: number, whole: number) => (whole ? round1((part / whole) * 100) : 0);

/** The pages of each group (OTHER_GROUP last), in one pass over the pages. */
function assign(records: IDataObject[], groups: readonly PageGroup[]): Map<string, IDataObject[]> {
	const byGroup = new Map<string, IDataObject[]>(groups.map(({ name }) => [name, []]));
	byGroup.set(OTHER_GROUP, []);
	for (const record of records) byGroup.get(groupOf(record.url, groups))!.push(record);
	return byGroup;
}

/** The pages of `records` that break a rule (`breaks`), lowest score first (no score last), with their group. */
function breakingPages(
	group: Judged,
	breaks: (record: IDataObject) => boolean,
): Array<PageEntry & { group: string }> {
	return group.records
		.filter(breaks)
		.map((record) => ({ ...pageEntry(record, group.options), group: group.name }))
		.sort((a, b) => (a.score ?? 101) - (b.score ?? 101) || Number(a.id) - Number(b.id))
		.slice(0, group.options.worstPages);
}

interface Judged {
	name: string;
	records: IDataObject[];
	figures: Omit<GroupFigures, 'budget' | 'passed' | 'breaches'>;
	options: SiteOptions;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * A broken rule's exact figure as a breach shows it: to hundredths, never rounded across the limit
 * (2 of 3 pages, 66.666…, below 67 shows 66.67; 94.996 below 95 shows 94.99, not 95).
 */
function shown(exact: number, limit: number, minimum: boolean): number {
	const value = round2(exact);
	if (minimum ? value < limit : value > limit) return value;
	return round2(minimum ? value - 0.01 : value + 0.01);
}

/** A score and page-count rule at `limit`: whether the exact figure holds it, what the breach shows, which pages break it. */
type FigureRule = (limit: number) => {
	holds: boolean;
	actual: number | null;
	text: string;
	breaks: (record: IDataObject) => boolean;
};

const scoreOf = (record: IDataObject) => classify(record.result).score;
const isBad = (record: IDataObject) => classify(record.result).result_class === 'bad';
const failsHigh = (record: IDataObject) =>
	[...checkStates(record.results).values()].some(
		({ passed, importance }) => !passed && importance === 'high',
	);

/**
 * The rules on a group's pages, each judged on the exact figure (not the rounded one the group
 * shows: 20 pages averaging 94.95 break a minimum of 95), each breach naming the pages to fix.
 */
function figureRules(
	records: IDataObject[],
): Record<Exclude<BudgetRule, 'required_check'>, FigureRule> {
	const pages = records.length;
	const scores = records.map(scoreOf).filter((score): score is number => score !== null);
	const sum = scores.reduce((total, score) => total + score, 0);
	const healthy = records.filter((record) => !failsHigh(record)).length;
	const bad = records.filter(isBad).length;
	const of = (count: number, what: string) => `${count} of ${pages} pages${what}`;
	return {
		min_average_score: (limit) => {
			// A sum of scores with decimals is off by a rounding error at most: equal is equal.
			const holds = scores.length ? sum - limit * scores.length > -1e-9 : limit <= 0;
			const actual = scores.length ? shown(sum / scores.length, limit, true) : null;
			return {
				holds,
				actual,
				text: `average score at least ${limit}, is ${String(actual)}`,
				breaks: (record) => (scoreOf(record) ?? Infinity) < limit,
			};
		},
		min_health_score: (limit) => {
			const actual = shown((healthy / pages) * 100, limit, true);
			return {
				holds: healthy * 100 >= limit * pages,
				actual,
				text: `health score at least ${limit}, is ${actual} (${of(healthy, ' without a failed high-importance check')})`,
				breaks: failsHigh,
			};
		},
		max_bad_share: (limit) => {
			const actual = shown((bad / pages) * 100, limit, false);
			return {
				holds: bad * 100 <= limit * pages,
				actual,
				text: `at most ${limit}% bad pages, is ${actual}% (${of(bad, '')})`,
				breaks: isBad,
			};
		},
		max_bad_pages: (limit) => ({
			holds: bad <= limit,
			actual: bad,
			text: `at most ${limit} bad pages, is ${bad}`,
			breaks: isBad,
		}),
	};
}

/** The score and page-count rules a group breaks (a group without pages breaks none). */
function figureBreaches(group: Judged, budget: GroupBudget): Breach[] {
	const rules = figureRules(group.records);
	return (Object.keys(rules) as Array<keyof typeof rules>).flatMap((rule) => {
		const limit = budget[rule];
		if (limit === null) return [];
		const { holds, actual, text, breaks } = rules[rule](limit);
		if (holds) return [];
		const pages = breakingPages(group, breaks);
		return [{ group: group.name, rule, limit, actual, text: `${group.name}: ${text}`, pages }];
	});
}

/** The checks a group's budget requires that pass on too few of its pages. */
function checkBreaches(group: Judged, budget: GroupBudget): Breach[] {
	const { figures, name } = group;
	const failing = new Map(figures.failing_checks.map((check) => [check.check, check.pages]));
	return budget.required_checks
		.filter(
			({ check, share }) =>
				(figures.pages - (failing.get(check) ?? 0)) * 100 < share * figures.pages,
		)
		.map(({ check, share }) => {
			const fails = failing.get(check) ?? 0;
			const pages = breakingPages(
				group,
				(record) => checkStates(record.results).get(check)?.passed === false,
			);
			// Several pages of a section failing one check is the section's template; one page is that page.
			const fix =
				fails > 1
					? 'one fix in the template these pages share'
					: `fix it on ${String(pages[0]?.url)}`;
			const passes = shown(((figures.pages - fails) / figures.pages) * 100, share, true);
			return {
				group: name,
				rule: 'required_check' as const,
				check,
				limit: share,
				actual: passes,
				text: `${name}: ${check} fails on ${fails} of ${figures.pages} pages (passes on ${passes}%, budget ${share}%): ${fix}`,
				pages,
			};
		});
}

/** Every page of a site (one record per page) that breaks `breach`: its `pages` list the worst few only. */
export function breachRecords(
	records: readonly IDataObject[],
	declared: readonly PageGroup[],
	breach: Breach,
): IDataObject[] {
	const mine = records.filter((record) => groupOf(record.url, declared) === breach.group);
	const breaks =
		breach.rule === 'required_check'
			? (record: IDataObject) => checkStates(record.results).get(breach.check!)?.passed === false
			: figureRules(mine)[breach.rule](breach.limit).breaks;
	return mine.filter(breaks);
}

/** The groups of a site's pages (one record per page), each with its figures and its budget judged. */
export function siteGroups(
	records: IDataObject[],
	groups: readonly PageGroup[],
	otherBudget: GroupBudget,
	options: SiteOptions,
): SiteGroups {
	const byGroup = assign(records, groups);
	const budgets = new Map(groups.map(({ name, budget }) => [name, budget]));
	const patterns = new Map(groups.map(({ name, pattern }) => [name, pattern]));
	const judged: GroupFigures[] = [...byGroup].map(([name, pages]) => {
		const health = siteHealth(pages, options);
		const figures = {
			name,
			pattern: patterns.get(name) ?? null,
			...health,
			worst_pages: health.worst_pages.map((page) => ({ ...page, group: name })),
			failing_checks: health.failing_checks.map((check) => ({
				...check,
				share: percent(check.pages, pages.length),
			})),
		};
		const budget = budgets.get(name) ?? otherBudget;
		const group: Judged = { name, records: pages, figures, options };
		const breaches = pages.length
			? [...checkBreaches(group, budget), ...figureBreaches(group, budget)]
			: [];
		return { ...figures, budget, passed: breaches.length === 0, breaches };
	});
	const broken = judged.filter(({ passed }) => !passed);
	return {
		groups: judged,
		budgets_passed: broken.length === 0,
		broken_groups: broken.map(({ name }) => name),
		breaches: broken.flatMap(({ breaches }) => breaches),
	};
}

/**
 * A site's groups as its item gives them (nothing without Page Groups): the groups, and each worst
 * page with its group. `records`: one per page; `health`: the site's, from them.
 */
export function withGroups(
	records: IDataObject[],
	health: Pick<SiteHealth, 'worst_pages'>,
	{ groups, defaultBudget }: { groups: readonly PageGroup[]; defaultBudget: GroupBudget },
	options: SiteOptions,
): Partial<SiteGroups> & { worst_pages?: GroupPage[] } {
	if (!groups.length) return {};
	return {
		...siteGroups(records, groups, defaultBudget, options),
		worst_pages: health.worst_pages.map((page) => ({ ...page, group: groupOf(page.url, groups) })),
	};
}

/**
 * Since the run before (its groups over budget; null: none known): groups newly over budget, and
 * back within it. With no run before, every group over budget is new, so an alert fires the first time.
 */
export function groupChanges(before: readonly string[] | null, now: SiteGroups): GroupChanges {
	const was = new Set(before ?? []);
	return {
		groups_newly_broken: now.broken_groups.filter((name) => !was.has(name)),
		groups_recovered: now.groups
			.filter(({ name, passed }) => passed && was.has(name))
			.map(({ name }) => name),
		groups_run_before: before !== null,
	};
}
