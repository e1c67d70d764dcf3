import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { BOUNDS, describeValue } from '../bounds';
import { boundedOption, fail } from '../input';
import { itemTraffic } from './traffic';

/** The options of a whole-site answer (Get Health, Create or Re-Run's One Item per Site), checked. */
export interface SiteSettings {
	worstPages: number;
	minChange: number;
	/** Create or Re-Run, Figures From → Every Page of the Site: the site's other pages count, as their newest reports say. */
	wholeSite: boolean;
	/** Worst Pages By: the lowest scores, or (with Search Console Data) the failing pages with most clicks. */
	worstBy: 'score' | 'clicks';
}

/** Figures From as set ('run' when not added); anything else stops the item naming the field. */
function figuresFrom(ctx: IExecuteSingleFunctions, value: unknown): 'run' | 'site' {
	if (value === undefined || value === 'run' || value === 'site') return value ?? 'run';
	return fail(
		ctx,
		`Figures From under Site Options must be "run" or "site", not ${describeValue(value)}`,
		'Set Figures From to Pages of This Run (run) or Every Page of the Site (site).',
	);
}

/** Worst Pages By as set ('score' when not added); Clicks without Search Console Data stops the item. */
function worstPagesBy(ctx: IExecuteSingleFunctions, value: unknown): 'score' | 'clicks' {
	if (value === undefined || value === 'score') return 'score';
	if (value !== 'clicks')
		return fail(
			ctx,
			`Worst Pages By under Site Options must be "score" or "clicks", not ${describeValue(value)}`,
			'Set Worst Pages By to Lowest Score (score) or Most Clicks (clicks).',
		);
	if (itemTraffic(ctx) === undefined)
		fail(
			ctx,
			'Worst Pages By under Site Options is Most Clicks, but there is no Search Console Data',
			"Give Search Console Data (or the input item's search_console) to rank pages by their clicks, or set Worst Pages By to Lowest Score.",
		);
	return 'clicks';
}

/** The site options (`siteOptions`) as the user set them, defaults filled in. */
export function siteSettings(ctx: IExecuteSingleFunctions): SiteSettings {
	const options = ctx.getNodeParameter('siteOptions', {}) as IDataObject;
	const { worstPages, minChange } = BOUNDS;
	return {
		worstPages: Math.round(
			boundedOption(
				ctx,
				'worstPages',
				options.worstPages,
				`Set Worst Pages under Site Options to how many of the lowest-scoring pages to list, from ${worstPages.low} to ${worstPages.high}.`,
			),
		),
		minChange: boundedOption(
			ctx,
			'minChange',
			options.minChange,
			`Set Minimum Change under Site Options to the points a page’s score must move to count as worse or better, from ${minChange.low} to ${minChange.high} (e.g. ${minChange.default}: analyses are noisy).`,
		),
		wholeSite: figuresFrom(ctx, options.figuresFrom) === 'site',
		worstBy: worstPagesBy(ctx, options.worstPagesBy),
	};
}
