import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { boundedNumber } from '../../../bounds';
import { fail } from '../../input';
import { type Branding, readBranding } from './branding';
import { HISTORY_LENGTH, runRecord, siteHistoryFields } from './fields';
import type { FailingCheck } from './issues';
import { recordRun } from './store';

/*
 * A site's history in a Create or Re-Run run (One Item per Site): its options checked before any
 * request, and the site item's history fields, this run recorded.
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
	const length = boundedNumber(options.historyLength ?? HISTORY_LENGTH.default, HISTORY_LENGTH);
	if ('problem' in length)
		fail(
			ctx,
			length.problem,
			`Set History Length under Site Options to how many runs to show, from ${HISTORY_LENGTH.low} to ${HISTORY_LENGTH.high}.`,
		);
	const branding = readBranding(ctx.getNodeParameter('reportBranding', {}) as IDataObject);
	if ('problem' in branding) fail(ctx, branding.problem, branding.enter);
	return {
		length: Math.round(length.value),
		branding: branding.branding,
		html: options.emailHtml === true,
	};
}

/** Create or Re-Run's check of the history options (One Item per Site only), before anything is sent. */
export async function checkHistoryOptions(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('output', 'pages') === 'sites') historySettings(this);
	return requestOptions;
}

/** The site item's history fields, this run recorded (kept unless the execution is manual). */
export function siteHistory(
	ctx: IExecuteSingleFunctions,
	site: IDataObject,
	length: number,
): IDataObject {
	const record = runRecord(site, Date.now() / 1000);
	const { history, saved } = recordRun(ctx, String(site.project), record);
	const failing = (site.failing_checks ?? []) as unknown as FailingCheck[];
	return siteHistoryFields(history, saved, failing, length);
}
