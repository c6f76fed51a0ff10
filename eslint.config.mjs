// Lint: typescript-eslint's recommended rules, plus the import rule of DESIGN.md §3: other packages only
// through their `exports` (no deep imports into another lib's src/ or dist/).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'test/conformance/**',
      'bench/out/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@quarry/*/*', '!@quarry/*/testing'],
              message:
                'Import another package only through its exports: @quarry/<name> (or its test helpers, @quarry/<name>/testing).',
            },
            {
              group: ['**/libs/*', '**/libs/*/**', '**/apps/*/**'],
              message: 'Import another package by its name.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
