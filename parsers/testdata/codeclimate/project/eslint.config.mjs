import js from "@eslint/js";
export default [js.configs.recommended, { rules: { eqeqeq: "error", "no-console": "warn", complexity: ["warn", 3] } }];
