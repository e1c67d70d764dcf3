import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PhpRankApi } from '../../credentials/PhpRankApi.credentials';
import { apiBaseUrl } from '../../nodes/PhpRank/transport/connection';
import { PhpRank } from '../../nodes/PhpRank/PhpRank.node';
import { PhpRankTrigger } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import { CREDENTIAL_TYPE } from '../../nodes/PhpRank/api';
import { read, shippedCredentials } from '../repoFiles';

const { description, methods } = new PhpRank();

function operationsOf(resource: string): INodePropertyOptions[] {
	const operation = description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	) as INodeProperties;
	return operation.options as INodePropertyOptions[];
}

describe('node description', () => {
	it('does not mark Password required: with Privacy as an expression n8n would ask for it for every privacy', () => {
		const passwords = description.properties.filter((p) => p.name === 'password');
		expect(passwords.length).toBeGreaterThan(0);
		expect(passwords.every((p) => !p.required)).toBe(true);
	});

	it('declares each parameter the items of a Get resolve once (n8n resolves every declaration per item)', () => {
		expect(description.properties.filter((p) => p.name === 'reportId')).toHaveLength(1);
	});

	it('offers Report and Project with one operation per endpoint of the spec, and a site’s health', () => {
		expect(operationsOf('report').map((o) => o.value)).toEqual(
			'compare create createOrRerun delete get getAll recordTicket update'.split(' '),
		);
		expect(operationsOf('project').map((o) => o.value)).toEqual(['delete', 'getAll', 'getHealth']);
	});

	it('gives every operation a sentence-case action and routes it through the transport', () => {
		for (const option of [...operationsOf('report'), ...operationsOf('project')]) {
			// Sentence case; URL stays an acronym.
			expect(option.action).toMatch(/^[A-Z][a-z-]+( ([a-z-]+|URL))+$/);
			expect(option.routing?.send?.paginate).toBe(true);
			expect(typeof option.routing?.operations?.pagination).toBe('function');
		}
	});

	it('is usable as an AI tool, uses the phpRank credential, and offers the n8n API one (History Store → Data Table) as optional, each labelled for what it is', () => {
		expect(description.usableAsTool).toBe(true);
		// Every credential the package ships, in its order; each tested by one of the node's own functions.
		const [api, n8nApi] = shippedCredentials();
		// displayName: the credential field's label in the editor (n8n 2.0 and 2.41), else "Credential".
		expect(description.credentials).toEqual([
			{
				name: api.name,
				displayName: api.displayName,
				required: true,
				testedBy: `${api.name}Test`,
				displayOptions: { show: { authentication: [api.name] } },
			},
			{
				name: n8nApi.name,
				displayName: 'n8n API (only for History Store → Data Table)',
				required: false,
				testedBy: `${n8nApi.name}Test`,
			},
		]);
		expect(Object.keys(methods.credentialTest)).toEqual(
			description.credentials?.map((c) => c.testedBy),
		);
		// RoutingNode takes, of two credentials, the one this hidden parameter's value shows.
		expect(description.properties.find(({ name }) => name === 'authentication')).toMatchObject({
			type: 'hidden',
			default: api.name,
		});
		expect(description.requestDefaults).toEqual({});
	});

	it('marks the API key as a password, signs requests with it, and leaves the credential test to the nodes', async () => {
		const credential = new PhpRankApi();
		const apiKey = credential.properties.find((p) => p.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
		// n8n would run a declarative `test` instead of the nodes' testedBy function.
		expect(credential).not.toHaveProperty('test');
		const signed = await credential.authenticate(
			{ baseUrl: 'https://x', apiKey: 'k3y' },
			{ url: '/reports', headers: { Accept: 'application/json' } },
		);
		expect(signed.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer k3y' });
	});
});

describe('both nodes', () => {
	it.each([
		['phpRank', new PhpRank().description, 'nodes/PhpRank'],
		['phpRank Trigger', new PhpRankTrigger().description, 'nodes/PhpRankTrigger'],
	])('%s ships distinct light and dark icons that exist', (_node, { icon }, folder) => {
		const { light, dark } = icon as { light: string; dark: string };
		const [lightSvg, darkSvg] = [light, dark].map((file) =>
			read(`${folder}/${file.replace('file:', '')}`),
		);
		expect(lightSvg).toMatch(/^<svg/);
		expect(darkSvg).toMatch(/^<svg/);
		expect(lightSvg).not.toBe(darkSvg);
	});

	// The scanner reads the nodes' credential names as literals; they must stay the transport's.
	it('name one credential, the same in the credential and the transport', () => {
		const names = [
			new PhpRankApi().name,
			...[new PhpRank(), new PhpRankTrigger()].map((n) => n.description.credentials?.[0].name),
		];
		expect(names).toEqual([CREDENTIAL_TYPE, CREDENTIAL_TYPE, CREDENTIAL_TYPE]);
	});
});

describe('Base URL normalisation', () => {
	it.each([
		['https://seo.example.com', 'https://seo.example.com/api/v1'],
		['https://seo.example.com/', 'https://seo.example.com/api/v1'],
		['https://seo.example.com//', 'https://seo.example.com/api/v1'],
		['https://seo.example.com/api/v1', 'https://seo.example.com/api/v1'],
		['https://seo.example.com/api/v1/', 'https://seo.example.com/api/v1'],
		['https://seo.example.com/API/V1', 'https://seo.example.com/api/v1'],
		['https://example.com/phprank', 'https://example.com/phprank/api/v1'],
		['https://example.com/phprank/api/v1/', 'https://example.com/phprank/api/v1'],
		['  https://seo.example.com  ', 'https://seo.example.com/api/v1'],
		['https://seo.example.com/?tab=reports', 'https://seo.example.com/api/v1'],
		['https://seo.example.com/dashboard#x', 'https://seo.example.com/dashboard/api/v1'],
		['https://seo.example.com/api/v1?x=1#y', 'https://seo.example.com/api/v1'],
		['', '/api/v1'],
	])('%j → %j', (input, expected) => {
		expect(apiBaseUrl(input)).toBe(expected);
	});
});
