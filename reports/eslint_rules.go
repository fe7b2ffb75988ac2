package reports

// ESLint's core rules as its documentation files them: each rule's type
// and whether its recommended configuration turns it on, as
// docs/src/_data/rules_meta.json of eslint/eslint v10.9.0 gives them (the
// data of https://eslint.org/docs/latest/rules). The type is one of three
// (https://eslint.org/docs/latest/extend/custom-rules, "Rule Structure"):
// "problem", code that "will cause an error or may cause a confusing
// behavior. Developers should consider this a high priority to resolve";
// "suggestion", "something that could be done in a better way but no
// errors will occur if the code isn't changed"; "layout", "whitespace,
// semicolons, commas, and parentheses". Deprecated rules are kept: older
// reports have them. Made from that file: a rule ESLint adds is looked up
// there.
var (
	eslintProblemRecommended = []string{
		"constructor-super", "for-direction", "getter-return", "no-async-promise-executor", "no-class-assign",
		"no-compare-neg-zero", "no-cond-assign", "no-const-assign", "no-constant-binary-expression",
		"no-constant-condition", "no-control-regex", "no-debugger", "no-dupe-args", "no-dupe-class-members",
		"no-dupe-else-if", "no-dupe-keys", "no-duplicate-case", "no-empty-character-class", "no-empty-pattern",
		"no-ex-assign", "no-fallthrough", "no-func-assign", "no-import-assign", "no-invalid-regexp",
		"no-irregular-whitespace", "no-loss-of-precision", "no-misleading-character-class", "no-new-native-nonconstructor",
		"no-obj-calls", "no-prototype-builtins", "no-self-assign", "no-setter-return", "no-sparse-arrays",
		"no-this-before-super", "no-unassigned-vars", "no-undef", "no-unexpected-multiline", "no-unreachable",
		"no-unsafe-finally", "no-unsafe-negation", "no-unsafe-optional-chaining", "no-unused-private-class-members",
		"no-unused-vars", "no-useless-assignment", "no-useless-backreference", "use-isnan", "valid-typeof",
	}
	eslintProblem = []string{
		"array-callback-return", "no-await-in-loop", "no-buffer-constructor", "no-constructor-return",
		"no-duplicate-imports", "no-inner-declarations", "no-negated-in-lhs", "no-new-symbol", "no-promise-executor-return",
		"no-self-compare", "no-template-curly-in-string", "no-unmodified-loop-condition", "no-unreachable-loop",
		"no-use-before-define", "require-atomic-updates",
	}
	eslintSuggestionRecommended = []string{
		"no-case-declarations", "no-delete-var", "no-empty", "no-empty-static-block", "no-extra-boolean-cast",
		"no-global-assign", "no-nonoctal-decimal-escape", "no-octal", "no-redeclare", "no-regex-spaces",
		"no-shadow-restricted-names", "no-unused-labels", "no-useless-catch", "no-useless-escape", "no-with",
		"preserve-caught-error", "require-yield",
	}
	eslintSuggestion = []string{
		"accessor-pairs", "arrow-body-style", "block-scoped-var", "callback-return", "camelcase", "capitalized-comments",
		"class-methods-use-this", "complexity", "consistent-return", "consistent-this", "curly", "default-case",
		"default-case-last", "default-param-last", "dot-notation", "eqeqeq", "func-name-matching", "func-names",
		"func-style", "global-require", "grouped-accessor-pairs", "guard-for-in", "handle-callback-err", "id-blacklist",
		"id-denylist", "id-length", "id-match", "init-declarations", "logical-assignment-operators", "max-classes-per-file",
		"max-depth", "max-lines", "max-lines-per-function", "max-nested-callbacks", "max-params", "max-statements",
		"multiline-comment-style", "new-cap", "no-alert", "no-array-constructor", "no-bitwise", "no-caller",
		"no-catch-shadow", "no-confusing-arrow", "no-console", "no-continue", "no-div-regex", "no-else-return",
		"no-empty-function", "no-eq-null", "no-eval", "no-extend-native", "no-extra-bind", "no-extra-label",
		"no-extra-semi", "no-floating-decimal", "no-implicit-coercion", "no-implicit-globals", "no-implied-eval",
		"no-inline-comments", "no-invalid-this", "no-iterator", "no-label-var", "no-labels", "no-lone-blocks",
		"no-lonely-if", "no-loop-func", "no-magic-numbers", "no-mixed-operators", "no-mixed-requires", "no-multi-assign",
		"no-multi-str", "no-native-reassign", "no-negated-condition", "no-nested-ternary", "no-new", "no-new-func",
		"no-new-object", "no-new-require", "no-new-wrappers", "no-object-constructor", "no-octal-escape",
		"no-param-reassign", "no-path-concat", "no-plusplus", "no-process-env", "no-process-exit", "no-proto",
		"no-restricted-exports", "no-restricted-globals", "no-restricted-imports", "no-restricted-modules",
		"no-restricted-properties", "no-restricted-syntax", "no-return-assign", "no-return-await", "no-script-url",
		"no-sequences", "no-shadow", "no-sync", "no-ternary", "no-throw-literal", "no-undef-init", "no-undefined",
		"no-underscore-dangle", "no-unneeded-ternary", "no-unused-expressions", "no-useless-call",
		"no-useless-computed-key", "no-useless-concat", "no-useless-constructor", "no-useless-rename", "no-useless-return",
		"no-var", "no-void", "no-warning-comments", "object-shorthand", "one-var", "one-var-declaration-per-line",
		"operator-assignment", "prefer-arrow-callback", "prefer-const", "prefer-destructuring",
		"prefer-exponentiation-operator", "prefer-named-capture-group", "prefer-numeric-literals", "prefer-object-has-own",
		"prefer-object-spread", "prefer-promise-reject-errors", "prefer-reflect", "prefer-regex-literals",
		"prefer-rest-params", "prefer-spread", "prefer-template", "quote-props", "radix", "require-await",
		"require-unicode-regexp", "sort-imports", "sort-keys", "sort-vars", "spaced-comment", "strict",
		"symbol-description", "vars-on-top", "yoda",
	}
	eslintLayout = []string{
		"array-bracket-newline", "array-bracket-spacing", "array-element-newline", "arrow-parens", "arrow-spacing",
		"block-spacing", "brace-style", "comma-dangle", "comma-spacing", "comma-style", "computed-property-spacing",
		"dot-location", "eol-last", "func-call-spacing", "function-call-argument-newline", "function-paren-newline",
		"generator-star-spacing", "implicit-arrow-linebreak", "indent", "indent-legacy", "jsx-quotes", "key-spacing",
		"keyword-spacing", "line-comment-position", "linebreak-style", "lines-around-comment", "lines-around-directive",
		"lines-between-class-members", "max-len", "max-statements-per-line", "multiline-ternary", "new-parens",
		"newline-after-var", "newline-before-return", "newline-per-chained-call", "no-extra-parens",
		"no-mixed-spaces-and-tabs", "no-multi-spaces", "no-multiple-empty-lines", "no-spaced-func", "no-tabs",
		"no-trailing-spaces", "no-whitespace-before-property", "nonblock-statement-body-position", "object-curly-newline",
		"object-curly-spacing", "object-property-newline", "operator-linebreak", "padded-blocks",
		"padding-line-between-statements", "quotes", "rest-spread-spacing", "semi", "semi-spacing", "semi-style",
		"space-before-blocks", "space-before-function-paren", "space-in-parens", "space-infix-ops", "space-unary-ops",
		"switch-colon-spacing", "template-curly-spacing", "template-tag-spacing", "unicode-bom", "wrap-iife", "wrap-regex",
		"yield-star-spacing",
	}
)
