import type { IDataObject } from 'n8n-workflow';

/*
 * What the request layer needs to know about a resource, declared by the resource itself beside
 * its descriptions (descriptions/<resource>/<resource>.spec.ts) and handed to every request as
 * data. Nothing in transport/ names a resource or a path: messages, answer checks, list order and
 * secrets all come from here.
 */
export interface ResourceSpec {
	/** The noun in messages: `report`, `project`. */
	noun: string;
	/** Its plural: `reports`. */
	plural: string;
	/** The collection under /api/v1: `/reports`. A path below it names one record by its key. */
	path: string;
	/** The field that identifies a record in a list: `id`, `project`. */
	key: string;
	/** The key as a user knows it, for "check the …": `report ID`, `project name`. */
	keyName: string;
	/** Whether messages quote the key: `project "example.com"` rather than `report 12`. */
	quoteKey?: boolean;
	/** What `data` of a single-record answer must be, in words and as a test. */
	record?: { describe: string; test: (data: IDataObject) => boolean };
	/** The body field a create names its record by (`url`): a failed create says which one. */
	createdFrom?: string;
	/**
	 * Node parameters that hold secrets (paths into the parameters, e.g. ['updateFields',
	 * 'password']). They are masked wherever n8n would carry the node: errors, logs.
	 */
	secretParameters?: string[][];
	/**
	 * Whether a list read with this query returns records sorted by key, highest first, with new
	 * records created only at the top. The paging rule is then exact on a list that moves.
	 */
	newestFirst?: (qs: IDataObject) => boolean;
	/** Whether a request makes phpRank work for seconds (an analysis): it gets the longer timeout. */
	isSlow?: (method: string, body: IDataObject | undefined) => boolean;
}

const declared = new Set<ResourceSpec>();

/**
 * Declares a resource. Its secret parameters are masked on every error of the node from then on,
 * also where a request is not about that resource (a picker of another field, a credential error).
 */
export function defineResource<T extends ResourceSpec>(spec: T): T {
	declared.add(spec);
	return spec;
}

/** Every node parameter declared secret by some resource. */
export function secretParameterPaths(): string[][] {
	return [...declared].flatMap((spec) => spec.secretParameters ?? []);
}

/** `report 12`, `project "example.com"`. */
export function nameRecord(spec: ResourceSpec, key: unknown): string {
	return spec.quoteKey ? `${spec.noun} "${String(key)}"` : `${spec.noun} ${String(key)}`;
}

/** The record a request path names (`/reports/12` → `12`), decoded, or undefined for the collection. */
export function keyInPath(spec: ResourceSpec, url: string): string | undefined {
	const path = url.split(/[?#]/)[0];
	if (!path.startsWith(`${spec.path}/`)) return undefined;
	const segment = path.slice(spec.path.length + 1).split('/')[0];
	if (!segment) return undefined;
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}
