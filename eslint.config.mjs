// Lint = the rule sets of eslint-plugin-n8n-nodes-base (community, credentials, nodes) plus the
// rules n8n's verification scanner applies to community packages (@n8n/eslint-plugin-community-nodes).
import n8nCommunityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

/*
 * The layers (ARCHITECTURE.md, Layers), top to bottom: the node, descriptions/, operations/ (one folder
 * per operation), engine/ (what two operations share), history/ (a site's runs over time), site/ (a
 * site's figures, pure), the base files beside them (api.ts, report.ts, bounds.ts, input.ts, ...), and
 * transport/. Each layer may import only the ones below it: an import that walks into a folder or file
 * of a higher layer is refused, as relative paths resolve from the file. Type-only imports count too: a
 * type from a higher layer ties the lower one to it as much as a value does.
 */
const NODE = ['descriptions', 'methods', 'PhpRank.node', 'PhpRankTrigger'];
const LAYERS = [
	{
		files: ['nodes/PhpRank/transport/**/*.ts'],
		forbidden: [...NODE, 'operations', 'engine', 'history', 'site', 'input', 'bounds', 'report'],
		rule: 'transport/ is the bottom layer: it may import only api.ts and other transport/ files',
	},
	{
		files: ['nodes/PhpRank/*.ts'],
		ignores: ['nodes/PhpRank/PhpRank.node.ts'],
		forbidden: [...NODE, 'operations', 'engine', 'history', 'site'],
		rule: 'the base files (api.ts, report.ts, input.ts, ...) may import one another and transport/ only',
	},
	{
		files: ['nodes/PhpRank/site/**/*.ts'],
		forbidden: [...NODE, 'operations', 'engine', 'history'],
		rule: 'site/ may import the base files and transport/ only',
	},
	{
		files: ['nodes/PhpRank/history/**/*.ts'],
		forbidden: [...NODE, 'operations', 'engine'],
		rule: 'history/ may import site/, the base files and transport/, never engine/ or operations/',
	},
	{
		files: ['nodes/PhpRank/engine/**/*.ts'],
		forbidden: [...NODE, 'operations'],
		rule: 'engine/ (what operations share) never imports an operation',
	},
	{
		files: ['nodes/PhpRank/operations/**/*.ts'],
		forbidden: NODE,
		// `../<folder>` from an operation's folder is a sibling operation.
		sibling: true,
		rule: 'an operation imports engine/ and the layers below it, never another operation or descriptions/',
	},
	{
		files: ['nodes/PhpRank/descriptions/**/*.ts'],
		forbidden: ['methods', 'PhpRank.node', 'PhpRankTrigger'],
		rule: 'descriptions/ may import operations/ and the layers below, never methods/ or the nodes above it',
	},
];

const layerRules = LAYERS.map(({ files, ignores, forbidden, sibling, rule }) => ({
	files,
	...(ignores ? { ignores } : {}),
	rules: {
		'no-restricted-imports': [
			'error',
			{
				patterns: [
					{
						// Any relative path that walks into a forbidden folder or file, however many `../` it takes.
						regex: `^(\\.\\.?/)+(.*/)?(${forbidden.join('|')})(/|$)`,
						message: `Upward import: ${rule} (ARCHITECTURE.md, Layers).`,
					},
					...(sibling
						? [
								{
									regex: '^\\.\\./[^./]',
									message: `Sideways import: ${rule} (ARCHITECTURE.md, Layers).`,
								},
							]
						: []),
				],
			},
		],
	},
}));

const parser = {
	languageOptions: {
		parser: tseslint.parser,
		parserOptions: { sourceType: 'module', extraFileExtensions: ['.json'] },
	},
};

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
	{ files: ['**/*.ts', 'package.json'], ...parser },
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// "Only applicable to nodes in the main repository": community credentials link a URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These predate NodeConnectionTypes, which n8n 2.x and the scanner expect instead of 'main'.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	// Short functions (ARCHITECTURE.md): a long routine is several named steps. What ships stays at 60
	// lines; the harness (scripts/: each e2e suite's sections, the bench's phases) at 120.
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		rules: {
			'max-lines-per-function': [
				'error',
				{ max: 60, skipBlankLines: true, skipComments: true, IIFEs: true },
			],
		},
	},
	{
		files: ['scripts/**/*.ts'],
		rules: {
			'max-lines-per-function': [
				'error',
				{ max: 120, skipBlankLines: true, skipComments: true, IIFEs: true },
			],
		},
	},
	// The verification scanner's rules, on everything that ships (and package.json). `npm run scan` runs
	// the scanner itself (its own plugin versions) on the source and the tarball.
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts', 'package.json'],
		...n8nCommunityNodes.configs.recommended,
	},
	{ files: ['credentials/**/*.ts', 'nodes/**/*.ts'], rules: { 'no-console': 'error' } },
	// The layers (ARCHITECTURE.md): node → descriptions → operations → engine → history → site → base →
	// transport, each importing only the ones below it. An import that points up fails lint; test/layers.test.ts proves each rule.
	...layerRules,
	// The scanner's rule set is for shipped code; tests and scripts may use Node's globals.
	...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
];
