import type {
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../nodes/PhpRank/api';

export class PhpRankApi implements ICredentialType {
	name = 'phpRankApi';

	displayName = 'phpRank API';

	icon: Icon = {
		light: 'file:../nodes/PhpRank/phprank.svg',
		dark: 'file:../nodes/PhpRank/phprank.dark.svg',
	};

	// A literal for the lint; test/unit/docs.test.ts holds it to docsUrl('credentials').
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
			description:
				'The API key shown on the API page of your phpRank account. Your plan must include API access.',
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

	// A function, not a generic `={{ }}` header: n8n evaluates that expression in its sandbox for
	// every request (13% of a 1,000-item run's time in a CPU profile of n8n 2.41).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
			},
		};
	}

	// Tested by the nodes (`testedBy: 'phpRankApiTest'`, nodes/PhpRank/methods/credentialTest.ts), not by a
	// declarative `test`: n8n would prefer a `test` and show a failed connection as a bare code.
}
