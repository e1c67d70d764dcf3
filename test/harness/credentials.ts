import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { PhpRankApi } from '../../credentials/PhpRankApi.credentials';
import { PhpRankN8nApi } from '../../credentials/PhpRankN8nApi.credentials';

export const credentialTypes: Record<string, ICredentialType> = {
	phpRankApi: new PhpRankApi(),
	phpRankN8nApi: new PhpRankN8nApi(),
};

/**
 * The credentials side of n8n's app, reduced to what a test needs. `authenticate` applies the
 * credential type's own generic `authenticate` block exactly as n8n's CredentialsHelper does
 * (each value resolved as an expression against the credential data), so a test sees the
 * Authorization header real n8n would send, and nothing a test adds by itself.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialTypes[typeName] ?? {};
		if (authenticate === undefined) return requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (!workflow || !node)
			throw new Error('authenticate needs the workflow and node to resolve expressions');
		const resolve = (value: string) =>
			value.charAt(0) === '='
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						) ?? '',
					)
				: value;
		const options = requestOptions as unknown as Record<string, Record<string, string>>;
		for (const [section, values] of Object.entries(authenticate.properties)) {
			options[section] ??= {};
			for (const [key, value] of Object.entries(values as Record<string, string>)) {
				options[section][resolve(key)] = resolve(value);
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new Error(`getCredentials(${type}) is not used by these tests`);
	}

	async getDecrypted(
		_additionalData: unknown,
		_details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credential of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}
}
