import { findingsOf } from '../../history/findings';
import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { boundedOption } from '../../input';
import { type Branding, brandingOf } from '../../engine/branding';
import { HISTORY_LENGTH } from '../../history/historyFields';
import { checkHistoryHome } from '../../history/homes';

/*
 * A site's history in a Create or Re-Run run (One Item per Site): its options checked before any
 * request (where the history is kept: keep.ts).
 */

export interface HistorySettings {
	length: number;
	branding: Branding;
	/** E-Mail HTML: whether the item carries `summary_html`. */
	html: boolean;
}

/** History Length, E-Mail HTML and Report Branding as set; bad values stop the item with an error naming the field. */
export function historySettings(ctx: IExecuteSingleFunctions): HistorySettings {
	const options = ctx.getNodeParameter('siteOptions', {}) as IDataObject;
	const length = boundedOption(
		ctx,
		'historyLength',
		options.historyLength,
		`Set History Length under Site Options to how many runs to show, from ${HISTORY_LENGTH.low} to ${HISTORY_LENGTH.high}.`,
	);
	const branding = brandingOf(ctx);
	return {
		length: Math.round(length),
		branding,
		html: options.emailHtml === true,
	};
}

/** Create or Re-Run's check of the history options (One Item per Site only), before anything is sent. */
export async function checkHistoryOptions(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const output = this.getNodeParameter('output', 'pages');
	if (output === 'pages') return requestOptions;
	historySettings(this);
	findingsOf(this);
	checkHistoryHome(this, 'createOrRerun');
	return requestOptions;
}
