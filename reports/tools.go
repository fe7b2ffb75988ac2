package reports

import "strings"

// Tool is what recap knows of a tool whose reports it reads beyond what
// the reports say: the words its categories are in and its home page.
type Tool struct {
	// Name is the tool's name, compared without case with a report's.
	Name string
	// Vocabulary is the vocabulary of the category table its words are in.
	Vocabulary string
	// URI is its home page, "" when it has none that is kept up.
	URI string
}

// Tools is the one table of the tools recap knows by name; FindBugs
// speaks SpotBugs' words.
var Tools = []Tool{
	{Name: "PMD", Vocabulary: VocabularyPMD, URI: "https://pmd.github.io/"},
	{Name: "Checkstyle", Vocabulary: VocabularyCheckstyle, URI: "https://checkstyle.org/"},
	{Name: "SpotBugs", Vocabulary: VocabularySpotBugs, URI: "https://spotbugs.github.io/"},
	{Name: "FindBugs", Vocabulary: VocabularySpotBugs},
}

// LookupTool is the entry of Tools of the tool a report names, and false
// for a tool recap does not know.
func LookupTool(name string) (Tool, bool) {
	for _, t := range Tools {
		if strings.EqualFold(name, t.Name) {
			return t, true
		}
	}
	return Tool{}, false
}
