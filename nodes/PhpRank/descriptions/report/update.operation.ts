import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { reportLocator, simplifyParameter } from '../common';
import { passwordDescription, privacyOptions } from './create.operation';

const properties: INodeProperties[] = [
	reportLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; the others stay as they are',
		options: [
			{
				displayName: 'Password',
				name: 'password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: `${passwordDescription}. Needed when Privacy is Password.`,
			},
			{
				displayName: 'Privacy',
				name: 'privacy',
				type: 'options',
				options: privacyOptions,
				default: 1,
				description: 'Who can open the report in phpRank',
			},
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
