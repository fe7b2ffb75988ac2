// The ESLint configuration of the small JavaScript project that tests run
// ESLint on (internal/tooltest.RunESLint): a few core rules of each kind,
// problems and suggestions, errors and warnings.
export default [
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { console: "readonly" } },
    rules: {
      "no-var": "error",
      "no-unused-vars": "warn",
      "no-undef": "error",
      eqeqeq: "error",
      "prefer-const": "warn",
      "no-eval": "error",
    },
  },
];
