import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../nodes/PhpRank/api';

/**
 * The API root of the instance, from the Base URL the user pasted. Users paste it in every shape
 * (`https://seo.example.com`, with a trailing slash, with `/api/v1`, on a sub-path); all of them
 * end up as `<instance>/api/v1`. A URL without a scheme is left as it is: the node rejects it
 * with a clear message before sending anything (see nodes/PhpRank/transport/request.ts).
 */
export const API_BASE_URL =
	"={{ String($credentials.baseUrl ?? '').trim().replace(/[?#].*$/, '').replace(/\\/+$/, '').replace(/\\/api\\/v1$/i, '') + '/api/v1' }}";

export class PhpRankApi implements ICredentialType {
	name = 'phpRankApi';

	displayName = 'phpRank API';

	icon: Icon = {
		light: 'file:../nodes/PhpRank/phprank.svg',
		dark: 'file:../nodes/PhpRank/phprank.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-phprank#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://seo.example.com',
			description:
				'The address of your phpRank instance, as you open it in the browser (with or without /api/v1)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API key shown on the API page of your phpRank account. Your plan must include API access.',
		},
		{
			displayName: 'Concurrent Requests',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: DEFAULT_CONCURRENCY,
			description:
				'How many requests n8n sends to this instance at once, for all workflows of one n8n process together. Raise it for an instance with many PHP workers.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// The cheapest read of the spec. Without `Accept: application/json` phpRank answers a bad key
	// with a 302 to its HTML login page, which would look like a success.
	test: ICredentialTestRequest = {
		request: {
			baseURL: API_BASE_URL,
			url: '/projects',
			method: 'GET',
			qs: { per_page: 10 },
			headers: { Accept: 'application/json' },
		},
		// n8n checks the two rule kinds in one loop; its type only allows one kind per array.
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key was rejected (HTTP 401). Copy it again from the API page of your phpRank account.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key is valid, but your phpRank plan has no API access (HTTP 403). Enable the API feature for your plan in phpRank.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No phpRank API at this Base URL (HTTP 404). Use the address you open phpRank with, e.g. https://seo.example.com.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data',
					value: undefined,
					message:
						'This Base URL answers, but not like a phpRank API (no JSON list came back). Use the address you open phpRank with, e.g. https://seo.example.com.',
				},
			},
		] as unknown as ICredentialTestRequest['rules'],
	};
}
