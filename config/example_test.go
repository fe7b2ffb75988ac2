package config_test

import (
	"fmt"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/reports"
)

func ExampleParse() {
	cfg, err := config.Parse(".recap.yml", []byte(`
exclude:
  rules: [Checkstyle:JavadocVariable]
overrides:
  - rules: [Checkstyle:FinalParameters, PMD:MethodArgumentCouldBeFinal]
    impact: info
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range []reports.Finding{
		{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.javadoc.JavadocVariableCheck"},
		{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", Impact: reports.ImpactLow},
	} {
		if cfg.Excluded(&f) {
			fmt.Println(f.Rule, "excluded")
			continue
		}
		cfg.Apply(&f)
		fmt.Println(f.Rule, "impact", f.Impact)
	}
	// Output:
	// com.puppycrawl.tools.checkstyle.checks.javadoc.JavadocVariableCheck excluded
	// MethodArgumentCouldBeFinal impact info
}

func ExampleParse_mistake() {
	_, err := config.Parse(".recap.yml", []byte("overrides:\n  - rules: [PMD:X]\n    impact: hihg\n"))
	fmt.Println(err)
	// Output:
	// .recap.yml:3:13: overrides[0].impact: unknown impact "hihg"; did you mean high? (want blocker, high, medium, low or info)
}
