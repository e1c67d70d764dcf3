import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { passwordField, privacyField, simplifyParameter } from '../common';

const properties: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; the others stay as they are',
		options: [
			passwordField(),
			privacyField(),
			{
				displayName: 'Re-Run Analysis',
				name: 'rerunAnalysis',
				type: 'boolean',
				default: true,
				description:
					'Whether to analyse the report’s URL again now, refreshing its score, checks and generation date (takes a few seconds)',
			},
		],
	},
	simplifyParameter,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['update'] } },
	properties,
);

/** What an AI model reads about this operation when the node is a tool (see `toolDescriptionFields`). */
export const toolDescription =
	'Change a phpRank report by its ID: re-run its SEO analysis (a few seconds; new score and checks) or change who can open it. Returns the updated report; after a re-run, "changes" says what changed (e.g. "score 72 → 61; newly failed: title (high)"). Use it after a page was fixed, to see the new score.';
