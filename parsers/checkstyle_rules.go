package parsers

import (
	"strings"

	"github.com/recap-dev/recap/reports"
)

//go:generate go run ../scripts/checkstyle-checks -o checkstyle_checks.go

// checkstyleCheck is a check of Checkstyle's table (checkstyle_checks.go):
// its package, the folder of its page on checkstyle.org, and the first
// sentence of its description.
type checkstyleCheck struct {
	pkg, desc string
}

// checkstyleDoc returns the page on checkstyle.org of the check that
// source (a Checkstyle XML source, a Checkstyle SARIF rule id) names, and
// the one-line description of the check; "" for both when source names
// nothing of Checkstyle's. A check of Checkstyle's table links its page,
// https://checkstyle.org/checks/<package>/<lowercased name>.html#<Name>
// (its package from the table, which knows the "misc" checks of the
// checks package itself); a check the table does not know (newer than
// its release) links the page of the same form from the package source
// names, without a description; Checkstyle's Checker and TreeWalker (a
// file it could not read or parse) link their configuration.
func checkstyleDoc(source string) (uri, short string) {
	word := checkstyleCategory(source)
	name := checkstyleRuleName(source)
	switch {
	case word == "" || name == "":
		return "", ""
	case word == "checker":
		return "https://checkstyle.org/config.html#" + name, "Checkstyle's " + name + " could not process the file (it reports no check's finding, but an error reading or parsing the file)."
	}
	if c, ok := checkstyleChecks[name]; ok {
		word, short = c.pkg, c.desc
	}
	return "https://checkstyle.org/checks/" + word + "/" + strings.ToLower(name) + ".html#" + name, short
}

// describeCheckstyle gives the rule table the page of the check a
// Checkstyle finding's rule names and its one-line description, where the
// report gives neither (Checkstyle's SARIF names the check in its short
// description), and returns the page ("" when the rule is not
// Checkstyle's). Callers ask once per rule.
func describeCheckstyle(tool, rule, name string, table *reports.Rules) string {
	uri, short := checkstyleDoc(rule)
	if uri == "" {
		return ""
	}
	r := table.Lookup(tool, rule)
	if r == nil {
		table.Add(tool, reports.Rule{ID: rule, Name: name, HelpURI: uri, Short: short})
		return uri
	}
	if r.HelpURI == "" {
		r.HelpURI = uri
	}
	if short != "" && (r.Short == "" || r.Short == r.Name || r.Short == name) {
		r.Short = short
	}
	return uri
}
