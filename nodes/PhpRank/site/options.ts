import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { BOUNDS } from '../bounds';
import { boundedOption } from '../input';

/** The options of a whole-site answer (Get Health, Create or Re-Run's One Item per Site), checked. */
export interface SiteSettings {
	worstPages: number;
	minChange: number;
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
	};
}
