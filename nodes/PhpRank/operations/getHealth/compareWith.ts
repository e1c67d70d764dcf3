import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../../api';
import { BOUNDS } from '../../bounds';
import { importanceRank } from '../../report';
import { readList } from '../../transport/paging';
import type { Caller } from '../../transport/request';
import { gapOf, MAX_COMPETITORS, type Verdict, verdictOf } from '../../engine/comparison';
import { boundedOption, fail, inputProblem } from '../../input';
import { newestPerUrl, siteHealth, type SiteOptions } from '../../site/figures';
import { shortList, signed } from '../../site/text';
import type { SiteHealth } from '../../site/types';

/*
 * Project → Get Health → Compare With: other projects beside the chosen one, from their report
 * lists alone (one list read per project, no analysis): health, average score, pages, a verdict on
 * the average (ahead, behind, or a tie within Site Options → Tie Within, as Compare With
 * Competitors says it of a page) and each failing check's share of pages on every site.
 */

interface Beside {
	project: string;
	health: SiteHealth;
}

/** The projects to compare with, as entered (From List or By Name), distinct, without the chosen one. */
export function compareWithNames(ctx: IExecuteSingleFunctions, chosen: string): string[] {
	const entries =
		(ctx.getNodeParameter('compareWith', {}) as { site?: Array<{ project?: unknown }> }).site ?? [];
	const names = entries
		.map(({ project }) =>
			String(
				(project && typeof project === 'object' ? (project as IDataObject).value : project) ?? '',
			).trim(),
		)
		.filter((name) => name !== '' && name !== chosen);
	const distinct = [...new Set(names)];
	if (distinct.length > MAX_COMPETITORS)
		fail(
			ctx,
			`Compare With has ${distinct.length} projects, more than the ${MAX_COMPETITORS} a comparison takes`,
			`Keep the ${MAX_COMPETITORS} projects that matter most.`,
		);
	return distinct;
}

/** Site Options → Tie Within: scores at most this many points apart tie. */
export function siteTieWithin(ctx: IExecuteSingleFunctions): number {
	const { tieWithin } = BOUNDS;
	return boundedOption(
		ctx,
		'tieWithin',
		(ctx.getNodeParameter('siteOptions', {}) as IDataObject).tieWithin,
		`Set Tie Within under Site Options to how many points apart two average scores still count as a tie, from ${tieWithin.low} to ${tieWithin.high}, e.g. ${tieWithin.default}.`,
		'Site Options',
	);
}

/** Each project's reports, one list read each (the `project` filter, 100 a page), as its health. */
export async function readSitesBeside(
	caller: Caller<IExecutePaginationFunctions>,
	names: string[],
	options: SiteOptions,
): Promise<Beside[]> {
	const { ctx, spec } = caller;
	return await Promise.all(
		names.map(async (project) => {
			const { items } = await readList(
				caller,
				{ project, ...spec.newestFirst },
				{ perPage: MAX_PAGE_SIZE },
			);
			if (!items.length)
				throw inputProblem(
					ctx,
					`Compare With: there are no reports of project "${project}"`,
					'Choose projects from the list (Project → Get Many lists those with reports), or create a report for a page of that site first.',
				);
			return { project, health: siteHealth(newestPerUrl(items), options) };
		}),
	);
}

const shareOf = (health: SiteHealth, check: string) => {
	const found = health.failing_checks.find((entry) => entry.check === check);
	return health.pages ? Math.round(((found?.pages ?? 0) / health.pages) * 100) : null;
};

interface SiteBeside {
	project: string;
	health_score: number | null;
	average_score: number | null;
	result_class: string | null;
	pages: number;
	gap: number | null;
	health_gap: number | null;
	verdict: Verdict | null;
}

/** The fields Compare With adds to the chosen site's item: `compared_with` and `check_shares`. */
export function besideFields(yours: Beside, others: Beside[], tieWithin: number): IDataObject {
	const compared: SiteBeside[] = others.map(({ project, health }) => {
		const gap = gapOf(health.average_score, yours.health.average_score);
		return {
			project,
			health_score: health.health_score,
			average_score: health.average_score,
			result_class: health.result_class,
			pages: health.pages,
			gap,
			health_gap: gapOf(health.health_score, yours.health.health_score),
			verdict: verdictOf(gap, tieWithin),
		};
	});
	const sites = [yours, ...others];
	const checks = new Map(
		sites.flatMap(({ health }) => health.failing_checks.map((c) => [c.check, c.importance])),
	);
	// Importance first (as every list of checks), then where the chosen site fails most.
	const shares = [...checks]
		.map(([check, importance]) => ({
			check,
			importance,
			failing_share: Object.fromEntries(sites.map((s) => [s.project, shareOf(s.health, check)])),
		}))
		.sort(
			(a, b) =>
				importanceRank(a.importance) - importanceRank(b.importance) ||
				(b.failing_share[yours.project] ?? 0) - (a.failing_share[yours.project] ?? 0) ||
				a.check.localeCompare(b.check),
		);
	return { compared_with: compared, check_shares: shares, tie_within: tieWithin };
}

/** `rival.com 85 (ahead by 7, health 90)`. */
function siteText(site: SiteBeside): string {
	const where =
		site.verdict === null || site.gap === null
			? ''
			: site.verdict === 'tie'
				? `tie (${signed(site.gap)}), `
				: `${site.verdict} by ${Math.abs(site.gap)}, `;
	return `${site.project} ${site.average_score ?? 'no score'} (${where}health ${site.health_score ?? '–'})`;
}

/** The line `summary_text` (and an AI tool) gets; Simplify's text columns. */
export function besideText(fields: IDataObject): { line: string; flat: IDataObject } {
	const compared = fields.compared_with as SiteBeside[];
	const shares = fields.check_shares as Array<{
		check: string;
		importance: string;
		failing_share: Record<string, number | null>;
	}>;
	const differing = shares.filter(
		({ failing_share }) => new Set(Object.values(failing_share)).size > 1,
	);
	const share = ({ check, importance, failing_share }: (typeof shares)[number]) =>
		`${check} (${importance}): ${Object.entries(failing_share)
			.map(([site, value]) => `${site} ${value ?? '–'}%`)
			.join(', ')}`;
	return {
		line: `Beside: ${compared.map(siteText).join('; ')}.`,
		flat: {
			compared_with: compared.map(siteText).join('; '),
			check_shares: shortList(differing.map(share), '; '),
			tie_within: fields.tie_within,
		},
	};
}

/**
 * The chosen site's health item with Compare With's fields: the other projects read (one list each)
 * and set beside it; its summary (and an AI tool's text) gains a line.
 */
export async function withBeside(
	caller: Caller<IExecutePaginationFunctions>,
	chosen: { project: string; records: IDataObject[] },
	item: IDataObject,
	options: SiteOptions,
	{ simplify, tool }: { simplify: boolean; tool: boolean },
): Promise<IDataObject> {
	const others = await readSitesBeside(
		caller,
		compareWithNames(caller.ctx, chosen.project),
		options,
	);
	const yours = {
		project: chosen.project,
		health: siteHealth(newestPerUrl(chosen.records), options),
	};
	const fields = besideFields(yours, others, siteTieWithin(caller.ctx));
	const { line, flat } = besideText(fields);
	if (simplify && tool) return { ...item, health: `${String(item.health)}\n${line}` };
	return {
		...item,
		...(simplify ? flat : fields),
		summary_text: `${String(item.summary_text)}\n${line}`,
	};
}
