import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { type Bound, BOUNDS, boundedNumber } from '../../bounds';
import { fail } from '../input';

/** The options of a whole-site answer (Get Health, Create or Re-Run's One Item per Site), checked. */
export interface SiteSettings {
	worstPages: number;
	minChange: number;
}

/** A number option within its bounds (`BOUNDS`), or the error that names the field and what to enter. */
export function boundedOption(
	ctx: IExecuteSingleFunctions,
	value: unknown,
	bound: Bound,
	enter: string,
): number {
	const checked = boundedNumber(value, bound);
	if ('problem' in checked) fail(ctx, checked.problem, enter);
	return checked.value;
}

/** The site options (`siteOptions`) as the user set them, defaults filled in. */
export function siteSettings(ctx: IExecuteSingleFunctions): SiteSettings {
	const options = ctx.getNodeParameter('siteOptions', {}) as IDataObject;
	const { worstPages, minChange } = BOUNDS;
	return {
		worstPages: Math.round(
			boundedOption(
				ctx,
				options.worstPages ?? worstPages.default,
				worstPages,
				`Set Worst Pages under Site Options to how many of the lowest-scoring pages to list, from ${worstPages.low} to ${worstPages.high}.`,
			),
		),
		minChange: boundedOption(
			ctx,
			options.minChange ?? minChange.default,
			minChange,
			`Set Minimum Change under Site Options to the points a page’s score must move to count as worse or better, from ${minChange.low} to ${minChange.high} (e.g. ${minChange.default}: analyses are noisy).`,
		),
	};
}
