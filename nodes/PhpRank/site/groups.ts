import type { IDataObject } from 'n8n-workflow';

import { checkStates } from '../report';
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

/** The pages of `records` that fail `check`, lowest score first. */
function failingPages(records: IDataObject[], check: string, options: SiteOptions): PageEntry[] {
	return records
		.filter((record) => checkStates(record.results).get(check)?.passed === false)
		.map((record) => pageEntry(record, options))
		.sort((a, b) => (a.score ?? 101) - (b.score ?? 101) || Number(a.id) - Number(b.id));
}

interface Judged {
	name: string;
	records: IDataObject[];
	figures: Omit<GroupFigures, 'budget' | 'passed' | 'breaches'>;
	options: SiteOptions;
}

const ruleTexts: Record<Exclude<BudgetRule, 'required_check'>, (limit: number) => string> = {
	min_average_score: (limit) => `average score at least ${limit}`,
	min_health_score: (limit) => `health score at least ${limit}`,
	max_bad_share: (limit) => `at most ${limit}% bad pages`,
	max_bad_pages: (limit) => `at most ${limit} bad pages`,
};

/** The score and page-count rules a group breaks (a group without pages breaks none). */
function figureBreaches(group: Judged, budget: GroupBudget): Breach[] {
	const { figures, name } = group;
	const bad = figures.worst_pages.filter((page) => page.result_class === 'bad');
	const checks: Array<
		[Exclude<BudgetRule, 'required_check'>, number | null, boolean, PageEntry[]]
	> = [
		[
			'min_average_score',
			figures.average_score,
			(figures.average_score ?? 0) >= (budget.min_average_score ?? 0),
			figures.worst_pages,
		],
		[
			'min_health_score',
			figures.health_score,
			(figures.health_score ?? 0) >= (budget.min_health_score ?? 0),
			figures.worst_pages,
		],
		[
			'max_bad_share',
			percent(figures.bad_pages, figures.pages),
			figures.bad_pages * 100 <= (budget.max_bad_share ?? 100) * figures.pages,
			bad,
		],
		[
			'max_bad_pages',
			figures.bad_pages,
			figures.bad_pages <= (budget.max_bad_pages ?? Infinity),
			bad,
		],
	];
	return checks
		.filter(([rule, , holds]) => budget[rule] !== null && !holds)
		.map(([rule, actual, , pages]) => ({
			group: name,
			rule,
			limit: budget[rule]!,
			actual,
			text: `${name}: ${ruleTexts[rule](budget[rule]!)}, is ${String(actual)}${rule === 'max_bad_share' ? '%' : ''}`,
			pages,
		}));
}

/** The checks a group's budget requires that pass on too few of its pages. */
function checkBreaches(group: Judged, budget: GroupBudget): Breach[] {
	const { figures, name, records } = group;
	const failing = new Map(figures.failing_checks.map((check) => [check.check, check.pages]));
	return budget.required_checks
		.filter(
			({ check, share }) =>
				(figures.pages - (failing.get(check) ?? 0)) * 100 < share * figures.pages,
		)
		.map(({ check, share }) => {
			const fails = failing.get(check) ?? 0;
			const pages = failingPages(records, check, group.options);
			// Several pages of a section failing one check is the section's template; one page is that page.
			const fix =
				fails > 1
					? 'one fix in the template these pages share'
					: `fix it on ${String(pages[0]?.url)}`;
			const passes = percent(figures.pages - fails, figures.pages);
			return {
				group: name,
				rule: 'required_check' as const,
				check,
				limit: share,
				actual: passes,
				text: `${name}: ${check} fails on ${fails} of ${figures.pages} pages (passes on ${passes}%, budget ${share}%): ${fix}`,
				pages: pages.slice(0, group.options.worstPages).map((page) => ({ ...page, group: name })),
			};
		});
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

/** Since the run before (its groups over budget; null: none known): groups newly over budget, and back within it. */
export function groupChanges(before: readonly string[] | null, now: SiteGroups): GroupChanges {
	const was = new Set(before ?? []);
	return {
		groups_newly_broken: now.broken_groups.filter((name) => !was.has(name)),
		groups_recovered: now.groups
			.filter(({ name, passed }) => passed && was.has(name))
			.map(({ name }) => name),
	};
}
