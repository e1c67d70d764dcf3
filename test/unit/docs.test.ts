import { PhpRankApi } from '../../credentials/PhpRankApi.credentials';
import { PhpRankN8nApi } from '../../credentials/PhpRankN8nApi.credentials';
import { docsUrl, type DocsSection } from '../../nodes/PhpRank/docs';
import { PhpRank } from '../../nodes/PhpRank/PhpRank.node';
import { PhpRankTrigger } from '../../nodes/PhpRankTrigger/PhpRankTrigger.node';
import { read } from '../repoFiles';

const codex = (file: string) =>
	JSON.parse(read(file)) as {
		node: string;
		resources: {
			primaryDocumentation: Array<{ url: string }>;
			credentialDocumentation: Array<{ url: string }>;
		};
	};

/** The anchors GitHub and npm give README headings: lower case, spaces to dashes, punctuation dropped. */
const readmeAnchors = read('README.md')
	.split('\n')
	.filter((line) => /^#{1,6} /.test(line))
	.map((line) =>
		line
			.replace(/^#+ /, '')
			.trim()
			.toLowerCase()
			.replace(/[^\w\- ]/g, '')
			.replace(/ /g, '-'),
	);

describe('Docs links in the editor', () => {
	it.each<[string, string | undefined, DocsSection]>([
		['phpRank', new PhpRank().description.documentationUrl, 'operations'],
		['phpRank Trigger', new PhpRankTrigger().description.documentationUrl, 'trigger'],
		['phpRank API credential', new PhpRankApi().documentationUrl, 'credentials'],
		[
			'phpRank History Store API credential',
			new PhpRankN8nApi().documentationUrl,
			'where-history-lives',
		],
	])(
		'%s opens its README section as it is (n8n appends no query to an http URL)',
		(_name, url, section) => {
			expect(url).toBe(docsUrl(section));
			expect(url).toMatch(/^https:\/\/[^?]+#[a-z-]+$/);
			expect(readmeAnchors).toContain(section);
		},
	);

	it.each([
		['nodes/PhpRank/PhpRank.node.json', 'phpRank', 'operations'],
		['nodes/PhpRankTrigger/PhpRankTrigger.node.json', 'phpRankTrigger', 'trigger'],
	] as const)('%s is the codex of %s and names the same pages', (file, name, section) => {
		const { node, resources } = codex(file);
		expect(node).toBe(`n8n-nodes-phprank.${name}`);
		expect(resources.primaryDocumentation).toEqual([{ url: docsUrl(section) }]);
		expect(resources.credentialDocumentation).toEqual([{ url: docsUrl('credentials') }]);
	});
});
