// Lint = the rule sets of eslint-plugin-n8n-nodes-base (community, credentials, nodes) plus the
// rules n8n's verification scanner applies to community packages (@n8n/eslint-plugin-community-nodes).
import n8nCommunityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

/*
 * Which folders a layer may not import from, as relative paths resolve from it. Type-only imports
 * count too: a type from a higher layer ties the lower one to it as much as a value does.
 */
const LAYERS = [
	{
		files: ['nodes/PhpRank/transport/**/*.ts'],
		forbidden: ['operations', 'descriptions', 'methods', 'PhpRank.node', 'PhpRankTrigger'],
		rule: 'transport/ is the bottom layer: it may import only api.ts and other transport/ files',
	},
	{
		files: ['nodes/PhpRank/operations/**/*.ts'],
		forbidden: ['descriptions', 'methods', 'PhpRank.node', 'PhpRankTrigger'],
		rule: 'operations/ may import transport/ and api.ts, never descriptions/, methods/ or the nodes above it',
	},
	{
		// Listed after the rule above, which it replaces for these files: it repeats its folders.
		files: ['nodes/PhpRank/operations/*.ts'],
		forbidden: [
			'descriptions',
			'methods',
			'PhpRank.node',
			'PhpRankTrigger',
			'createOrRerun',
			'getHealth',
			'getMany',
			'update',
		],
		rule: 'what operations share (operations/*.ts) never imports one operation’s folder',
	},
	{
		files: ['nodes/PhpRank/descriptions/**/*.ts'],
		forbidden: ['methods', 'PhpRank.node', 'PhpRankTrigger'],
		rule: 'descriptions/ may import operations/, transport/ and api.ts, never methods/ or the nodes above it',
	},
];

const layerRules = LAYERS.map(({ files, forbidden, rule }) => ({
	files,
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
	// The layers (ARCHITECTURE.md): node → descriptions → operations → transport, each importing only
	// the ones below it. An import that points up fails lint; test/layers.test.ts proves each rule.
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
