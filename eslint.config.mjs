import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './eslint-rules/layers.mjs';

export default tseslint.config(
  { ignores: ['**/*.cjs', '**/*.mjs', 'dist/**', 'node_modules/**', 'test/fixtures/**', '.vscode-test/**', 'webview-ui/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  {
    // The core runs in the CLI and in plain-Node tests: it must never reach for the editor.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/core must not import vscode; go through the Host port.' }] },
      ],
    },
  },
  {
    // Folders are layers and imports point down only (ARCHITECTURE.md, "The house").
    files: ['src/**/*.ts', 'webview-ui/src/**/*.ts', 'webview-ui/src/**/*.tsx'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/imports-point-down': 'error' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'max-lines': 'off' },
  },
);
