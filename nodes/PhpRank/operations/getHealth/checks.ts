import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { projectName } from '../input';
import { siteSettings } from '../site/options';

/** Project → Get Health: a project (unless All Projects) and its site options, checked before anything is sent. */
export async function checkHealthInput(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	if (!(this.getNodeParameter('allProjects', false) as boolean)) projectName(this);
	siteSettings(this);
	return requestOptions;
}
