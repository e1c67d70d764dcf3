/**
 * The documentation the editor's Docs links open: the README as npm shows it, which is the README of
 * the latest release, at the section of the node. n8n opens a node's `documentationUrl` as it is; a
 * codex `primaryDocumentation` URL gets a tracking query appended after it, which lands inside the
 * `#section` fragment and loses it.
 */
const README = 'https://www.npmjs.com/package/n8n-nodes-phprank';

export type DocsSection = 'credentials' | 'operations' | 'trigger' | 'where-history-lives';

export function docsUrl(section: DocsSection): string {
	return `${README}#${section}`;
}
