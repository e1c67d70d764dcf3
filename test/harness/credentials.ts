import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { PhpRankApi } from '../../credentials/PhpRankApi.credentials';
import { PhpRankN8nApi } from '../../credentials/PhpRankN8nApi.credentials';

export const credentialTypes: Record<string, ICredentialType> = {
	phpRankApi: new PhpRankApi(),
	phpRankN8nApi: new PhpRankN8nApi(),
};

/**
 * The credentials side of n8n's app, reduced to what a test needs. `authenticate` calls the
 * credential type's own `authenticate` function as n8n's CredentialsHelper does, so a test sees the
 * header real n8n would send, and nothing a test adds by itself.
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
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialTypes[typeName] ?? {};
		if (authenticate === undefined) return requestOptions as IHttpRequestOptions;
		// Both credentials sign with a function; n8n's generic `authenticate` block is not applied here.
		if (typeof authenticate !== 'function')
			throw new Error(`${typeName}: a generic authenticate block is not applied by this harness`);
		return await authenticate(credentials, requestOptions as IHttpRequestOptions);
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
