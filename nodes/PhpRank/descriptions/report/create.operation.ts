import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyParameter } from '../common';

export const privacyOptions = [
	{ name: 'Public', value: 0, description: 'Anyone with the link can open the report' },
	{ name: 'Private', value: 1, description: 'Only you can open the report' },
	{ name: 'Password', value: 2, description: 'Visitors need a password to open the report' },
];

export const passwordDescription =
	'The password visitors must enter to open the report (at most 128 characters)';

const properties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/pricing',
		description: 'The page to analyse, starting with http:// or https://',
		routing: { send: { type: 'body', property: 'url' } },
	},
	{
		displayName: 'Privacy',
		name: 'privacy',
		type: 'options',
		options: privacyOptions,
		default: 1,
		description: 'Who can open the report in phpRank',
		routing: { send: { type: 'body', property: 'privacy' } },
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description: passwordDescription,
		displayOptions: { show: { privacy: [2] } },
		routing: { send: { type: 'body', property: 'password' } },
	},
	simplifyParameter,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['create'] } },
	properties,
);
