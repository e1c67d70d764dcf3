import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { checkPrivacy, fail, parsePrivacy } from '../../input';

/** Report → Update: sends only the fields the user added; Re-Run Analysis becomes `results=1`. */
export async function buildUpdateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	const body: IDataObject = {};
	// A Privacy that gives nothing leaves the report's privacy as it is.
	const privacy = fields.privacy === undefined ? undefined : parsePrivacy(this, fields.privacy);
	if (fields.password !== undefined && fields.password !== '') body.password = fields.password;
	if (fields.rerunAnalysis !== undefined) body.results = fields.rerunAnalysis ? 1 : 0;
	if (body.password !== undefined && privacy === undefined) {
		fail(
			this,
			'A password only applies with Password privacy',
			'Add Privacy to the update fields and set it to Password, or remove the Password field.',
		);
	}
	checkPrivacy(this, body, privacy);
	if (Object.keys(body).length === 0) {
		fail(
			this,
			'Nothing to update',
			'Add at least one field under Update Fields: Privacy, Password or Re-Run Analysis.',
		);
	}
	return { ...requestOptions, body };
}
