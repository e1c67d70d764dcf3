import type {
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/**
 * n8n's own public API, for the phpRank node's History Store → Data Table: the key of an n8n
 * user and the address this n8n answers at. A credential of this package: the community lint
 * forbids a node of it to use n8n's built-in n8n API credential (no-credential-reuse).
 */
export class PhpRankN8nApi implements ICredentialType {
	name = 'phpRankN8nApi';

	// n8n's scanner lints without inline exceptions: "n8n" would have to be written "N8n" here.
	displayName = 'phpRank History Store API';

	icon: Icon = {
		light: 'file:../nodes/PhpRank/phprank.svg',
		dark: 'file:../nodes/PhpRank/phprank.dark.svg',
	};

	// A literal for the lint; test/unit/docs.test.ts holds it to docsUrl('where-history-lives').
	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-phprank#where-history-lives';

	properties: INodeProperties[] = [
		{
			displayName: 'n8n Address',
			name: 'baseUrl',
			type: 'string',
			default: 'http://localhost:5678',
			required: true,
			placeholder: 'http://localhost:5678',
			description:
				'The address this n8n answers at from its own server (with or without /api/v1), e.g. http://localhost:5678. In queue mode, one every worker can reach: the main instance’s address.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'An n8n API key (Settings → n8n API → Create an API key) with the scopes dataTable:list, dataTable:read, dataTable:create, dataTableRow:read, dataTableRow:create and dataTableRow:upsert',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'X-N8N-API-KEY': String(credentials.apiKey ?? '') },
		};
	}

	// Tested by the node (`testedBy: 'phpRankN8nApiTest'`, nodes/PhpRank/methods/historyTables.ts).
}
