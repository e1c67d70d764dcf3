const path = require('path');
const { task, src, dest } = require('gulp');

// tsc emits only .js: n8n also needs the icons (and the codex .json files) beside each compiled node.
task('build:icons', () =>
	src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist'))),
);
