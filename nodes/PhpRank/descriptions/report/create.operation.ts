import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { passwordField, privacyField, simplifyParameter } from '../common';
import { RESULT_CLASSES_TEXT } from '../../api';

/** How the URL is read (input.ts, checkCreateBody): Create's and Create or Re-Run's. */
const URL_DESCRIPTION =
	'The page to analyse, e.g. example.com/pricing or https://example.com/pricing: https:// is added when the URL has no scheme (as the phpRank Trigger and forms give it); only http and https are taken';

/** The fields of a report to create: Create, and Create or Re-Run. */
export function createFields(
	texts: { urlDescription?: string; privacyDescription?: string } = {},
): INodeProperties[] {
	return [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://example.com/pricing',
			description: texts.urlDescription ?? URL_DESCRIPTION,
			routing: { send: { type: 'body', property: 'url' } },
		},
		privacyField({
			routing: { send: { type: 'body', property: 'privacy' } },
			...(texts.privacyDescription ? { description: texts.privacyDescription } : {}),
		}),
		// Not `required`: with Privacy set by an expression n8n shows the field for every privacy.
		passwordField({
			displayOptions: { show: { privacy: [2] } },
			routing: { send: { type: 'body', property: 'password' } },
		}),
		simplifyParameter,
	];
}

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['create'] } },
	createFields(),
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription = `Audit the SEO of one web page with phpRank: it analyses the URL now (a few seconds) and returns the new report: its ID, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and the checks that failed, grouped by importance. Use it only when the user wants a new, separate report: every call creates one.`;
