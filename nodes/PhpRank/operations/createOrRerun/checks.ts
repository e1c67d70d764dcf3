import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BOUNDS } from '../../bounds';
import { boundedOption, siteSettings } from '../site/options';

/** Confirm Drops: the points a score must fall by to be confirmed, or undefined when off. */
export function confirmDropPoints(ctx: IExecuteSingleFunctions): number | undefined {
	if (!(ctx.getNodeParameter('confirmDrops', false) as boolean)) return undefined;
	const { dropPoints } = BOUNDS;
	return boundedOption(
		ctx,
		ctx.getNodeParameter('dropPoints', dropPoints.default),
		dropPoints,
		`Set Drop Points (under Confirm Drops) to how many points a score must fall by to be analysed again, from ${dropPoints.low} to ${dropPoints.high} (e.g. ${dropPoints.default}).`,
	);
}

/** Confirm Drops and, with One Item per Site, the site options, checked before anything is sent. */
export async function checkRerunOptions(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	confirmDropPoints(this);
	if (this.getNodeParameter('output', 'pages') === 'sites') siteSettings(this);
	return requestOptions;
}
