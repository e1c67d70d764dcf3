import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { PHPRANK_CHECKS } from '../api';
import { BOUNDS, type BoundName, describeValue, readBounded } from '../bounds';
import { fail } from '../input';
import { runOf } from '../transport/run';
import { NO_BUDGET, OTHER_GROUP, type PageGroup, type PatternKind, pathPattern } from './groups';
import type { GroupBudget } from './types';

/*
 * Page Groups and Default Budget as set (descriptions/pageGroups.ts), checked before anything is
 * sent: each problem names the group and the field. A group's budget inherits each rule it does not
 * set from the Default Budget (its required checks are added to the default's, its own share
 * winning); Other is held to the Default Budget.
 */

export interface PageGroupSettings {
	groups: PageGroup[];
	/** The Default Budget: Other's, and what groups inherit. */
	defaultBudget: GroupBudget;
}

/** Stops the item with a problem (naming the group and field) and what to enter. */
type Raise = (message: string, fix: string) => never;

const NUMBER_RULES: Array<[BoundName, Exclude<keyof GroupBudget, 'required_checks'>]> = [
	['minAverageScore', 'min_average_score'],
	['minHealthScore', 'min_health_score'],
	['maxBadShare', 'max_bad_share'],
	['maxBadPages', 'max_bad_pages'],
];

const CHECK_ENTRY = /^([a-z0-9_]+)(?:\s*[:=]\s*|\s+)?(\d+(?:\.\d+)?)?\s*%?$/i;

/** `meta_description, title:95`: each check, with the share (%) of pages it must pass on (100 when none is given). */
function requiredChecks(
	text: unknown,
	where: string,
	raise: Raise,
): GroupBudget['required_checks'] {
	if (text === undefined || text === null || String(text).trim() === '') return [];
	const share = BOUNDS.requiredCheckShare;
	return String(text)
		.split(/[,;\n]/)
		.map((entry) => entry.trim())
		.filter(Boolean)
		.map((entry) => {
			const match = CHECK_ENTRY.exec(entry);
			const fix = `Enter phpRank check names, each with the share of pages it must pass on, e.g. "meta_description, title:95" (no share: ${share.default}%).`;
			if (!match) raise(`${where} → Checks That Must Pass: cannot read "${entry}"`, fix);
			const check = match[1].toLowerCase();
			if (!(PHPRANK_CHECKS as readonly string[]).includes(check))
				raise(
					`${where} → Checks That Must Pass: phpRank has no check "${match[1]}"`,
					`Use one of phpRank's checks: ${PHPRANK_CHECKS.join(', ')}.`,
				);
			const value = match[2] === undefined ? share.default : Number(match[2]);
			if (value > share.high) raise(`${where} → Checks That Must Pass: ${check} at ${value}%`, fix);
			return { check, share: value };
		});
}

/** A budget as set under `where`; each rule it does not set from `inherited`. */
function readBudget(
	raw: IDataObject,
	where: string,
	inherited: GroupBudget,
	raise: Raise,
): GroupBudget {
	const budget: GroupBudget = { ...inherited };
	for (const [name, rule] of NUMBER_RULES) {
		const value = raw[name];
		if (value === undefined || value === null || value === '') continue;
		budget[rule] = readBounded(name, value, (problem) => {
			const bound = BOUNDS[name];
			raise(
				`${where} → ${problem}`,
				`Enter a number from ${bound.low} to ${bound.high}, or remove the option to inherit it.`,
			);
		});
	}
	const own = requiredChecks(raw.requiredChecks, where, raise);
	const overridden = new Set(own.map(({ check }) => check));
	budget.required_checks = [
		...inherited.required_checks.filter(({ check }) => !overridden.has(check)),
		...own,
	];
	return budget;
}

/** A group's pattern compiled, or the problem naming the group. */
function compile(pattern: string, kind: PatternKind, where: string, raise: Raise): RegExp {
	if (kind === 'regex') {
		try {
			return new RegExp(pattern);
		} catch (error) {
			return raise(
				`${where} → URL Pattern: ${describeValue(pattern)} is not a regular expression (${(error as Error).message})`,
				'Enter a JavaScript regular expression matched against the page’s path and query, e.g. ^/blog/\\d{4}/',
			);
		}
	}
	if (!pattern.startsWith('/') || /\s/.test(pattern) || /^\/\//.test(pattern))
		raise(
			`${where} → URL Pattern: ${describeValue(pattern)} is not a path`,
			'Enter a path that starts with /, e.g. /blog/* (one level), /products/** (any depth) or / (the home page); or set Pattern Type to Regular Expression.',
		);
	return pathPattern(pattern);
}

/** Where a declared group is, as errors name it: `Page Groups → group 2 (Blog)`. */
export const groupPlace = (index: number, name: string) =>
	`Page Groups → group ${index + 1}${name ? ` (${name})` : ''}`;

/** One declared group, checked. */
function readGroup(
	raw: IDataObject,
	index: number,
	defaults: GroupBudget,
	names: Map<string, string>,
	raise: Raise,
): PageGroup {
	const name = String(raw.name ?? '').trim();
	const where = groupPlace(index, name);
	if (!name) raise(`${where} → Name is empty`, 'Give every group a name, e.g. Products.');
	const key = name.toLowerCase();
	if (key === OTHER_GROUP.toLowerCase())
		raise(
			`${where} → Name: "${OTHER_GROUP}" is the group of the pages no pattern matches`,
			`Choose another name; Other's budget is the Default Budget.`,
		);
	const taken = names.get(key);
	// The group declared first, as it is spelt there: `group 2 (blog) → another group is called "Blog"`.
	if (taken !== undefined)
		raise(`${where} → Name: another group is called "${taken}"`, 'Give each group its own name.');
	names.set(key, name);
	const kind: PatternKind = raw.patternType === 'regex' ? 'regex' : 'path';
	const pattern = String(raw.pattern ?? '').trim();
	if (!pattern) raise(`${where} → URL Pattern is empty`, 'Enter a path such as /blog/*.');
	const matcher = compile(pattern, kind, where, raise);
	const budget = readBudget((raw.budget as IDataObject | undefined) ?? {}, where, defaults, raise);
	return { name, pattern, kind, budget, matcher };
}

/** The groups and the Default Budget as set (none: no groups); a problem stops the item, naming the group and field. */
function readPageGroupSettings(ctx: IExecuteSingleFunctions): PageGroupSettings {
	const declared = ctx.getNodeParameter('pageGroups.group', []) as IDataObject[];
	const raise: Raise = (message, fix) => fail(ctx, message, fix);
	const defaultBudget = readBudget(
		ctx.getNodeParameter('defaultBudget', {}) as IDataObject,
		'Default Budget',
		NO_BUDGET,
		raise,
	);
	const names = new Map<string, string>();
	const groups = (Array.isArray(declared) ? declared : []).map((raw, index) =>
		readGroup(raw, index, defaultBudget, names, raise),
	);
	return { groups, defaultBudget };
}

/** Page Groups and Default Budget of the item, read and checked once per item and try (`Run.setting`). */
export const pageGroupSettings = (ctx: IExecuteSingleFunctions): PageGroupSettings =>
	runOf(ctx).setting(ctx.getItemIndex(), 'pageGroups', () => readPageGroupSettings(ctx));
