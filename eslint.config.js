// ESLint's flat configuration: the scripts the browser runs as they are served (no build
// step: plain scripts, each in its own function, `var` as the browsers of the tablets read
// it), and the scripts' tests under Node's own test runner. tests/test_lint.py runs it.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  {
    ignores: ["node_modules/", "staticfiles/", ".venv/", "tests/browser/axe/", "templates/"],
  },
  js.configs.recommended,
  {
    files: ["tournament/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      // board.js and turn_check.js are also CommonJS modules for the tests under Node
      globals: { ...globals.browser, htmx: "readonly", module: "readonly", require: "readonly" },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-var": "off",
      eqeqeq: ["error", "always"],
      strict: ["error", "function"],
      "no-implicit-globals": "error",
    },
  },
  {
    files: ["eslint.config.js", "tests/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "commonjs",
      globals: { ...globals.node },
    },
    rules: {
      eqeqeq: ["error", "always"],
    },
  },
];
