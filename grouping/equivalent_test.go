package grouping

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

// classOfRule is the class of a "Tool:Rule" of the table, -1 for none.
func classOfRule(t testing.TB, rule string) int {
	t.Helper()
	tool, name, ok := strings.Cut(rule, ":")
	if !ok {
		t.Fatalf("%q is not Tool:Rule", rule)
	}
	return ClassOf(tool, name)
}

func TestClassOf(t *testing.T) {
	braces := classOfRule(t, "PMD:ControlStatementBraces")
	equality := classOfRule(t, "PMD:UseEqualsToCompareStrings")
	emptyCatch := classOfRule(t, "PMD:EmptyCatchBlock")
	if braces < 0 || equality < 0 || emptyCatch < 0 || braces == equality {
		t.Fatalf("classes %d, %d, %d", braces, equality, emptyCatch)
	}
	tests := []struct {
		name, tool, rule string
		want             int
	}{
		{"PMD short name", "PMD", "ControlStatementBraces", braces},
		{"Checkstyle short name", "Checkstyle", "NeedBraces", braces},
		{"Checkstyle class name", "Checkstyle", "com.puppycrawl.tools.checkstyle.checks.blocks.NeedBracesCheck", braces},
		{"Checkstyle SARIF id with message key", "Checkstyle", "com.puppycrawl.tools.checkstyle.checks.blocks.NeedBracesCheck#needBraces", braces},
		{"Checkstyle name with Check", "Checkstyle", "NeedBracesCheck", braces},
		{"tool in another case", "checkstyle", "NeedBraces", braces},
		{"tool in capitals", "PMD", "UseEqualsToCompareStrings", equality},
		{"tool in lower case", "pmd", "UseEqualsToCompareStrings", equality},
		{"SpotBugs", "SpotBugs", "ES_COMPARING_STRINGS_WITH_EQ", equality},
		{"FindBugs is SpotBugs", "FindBugs", "ES_COMPARING_PARAMETER_STRING_WITH_EQ", equality},
		{"findbugs in lower case", "findbugs", "ES_COMPARING_STRINGS_WITH_EQ", equality},
		{"PMD 6 name", "PMD", "IfStmtsMustUseBraces", braces},
		{"one name, two tools: Checkstyle's", "Checkstyle", "EmptyCatchBlock", emptyCatch},
		{"one name, two tools: PMD's", "PMD", "EmptyCatchBlock", emptyCatch},
		{"rule case matters", "PMD", "controlstatementbraces", -1},
		{"a rule of another tool", "SpotBugs", "ControlStatementBraces", -1},
		{"a rule in no class", "PMD", "SystemPrintln", -1},
		{"a Checkstyle check in no class", "Checkstyle", "com.puppycrawl.tools.checkstyle.checks.design.DesignForExtensionCheck", -1},
		{"another tool", "ESLint", "no-unused-vars", -1},
		{"a tool named like one", "PMD Apex", "ControlStatementBraces", -1},
		{"no tool", "", "ControlStatementBraces", -1},
		{"no rule", "PMD", "", -1},
		{"only a package", "Checkstyle", "com.puppycrawl.tools.checkstyle.checks.", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ClassOf(tt.tool, tt.rule); got != tt.want {
				t.Errorf("ClassOf(%q, %q) = %d, want %d", tt.tool, tt.rule, got, tt.want)
			}
		})
	}
}

// TestRuleClasses: every rule is "Tool:Rule" with a known tool and a short
// name, in one class only; every class has a problem, evidence and rules of
// at least two names; ClassOf finds each rule's own class.
func TestRuleClasses(t *testing.T) {
	seen := map[string]string{}
	problems := map[string]bool{}
	for i, c := range RuleClasses {
		if c.Problem == "" || c.Evidence == "" || strings.ContainsAny(c.Problem+c.Evidence, "|\n") {
			t.Errorf("class %d (%q): a problem and one line of evidence, without |, are needed", i, c.Problem)
		}
		if problems[c.Problem] {
			t.Errorf("class %d: problem %q twice", i, c.Problem)
		}
		problems[c.Problem] = true
		if len(c.Rules) < 2 {
			t.Errorf("class %d (%q) has %d rules: a class needs two", i, c.Problem, len(c.Rules))
		}
		for _, r := range c.Rules {
			tool, rule, ok := strings.Cut(r, ":")
			if !ok || toolOf(tool) == toolNone || tool == "FindBugs" || rule == "" || strings.ContainsAny(rule, ".#: ") {
				t.Errorf("class %d (%q): %q is not Checkstyle:, PMD: or SpotBugs: with a short rule name", i, c.Problem, r)
				continue
			}
			if tool == "Checkstyle" && reports.ShortRule(tool, rule) != rule {
				t.Errorf("class %d: %q is not the check's short name %q", i, r, reports.ShortRule(tool, rule))
			}
			if other, ok := seen[r]; ok {
				t.Errorf("%s is in two classes: %q and %q", r, other, c.Problem)
			}
			seen[r] = c.Problem
			if got := ClassOf(tool, rule); got != i {
				t.Errorf("ClassOf(%q, %q) = %d, want %d", tool, rule, got, i)
			}
		}
	}
	indexed := 0
	for _, m := range classIndex {
		indexed += len(m)
	}
	if indexed != len(seen) {
		t.Errorf("the index holds %d rules, the table %d", indexed, len(seen))
	}
}

// TestClassesKeepApart: rules that report different problems, often on one
// line or mapped to one Sonar rule, are never in one class.
func TestClassesKeepApart(t *testing.T) {
	pairs := []struct{ a, b, why string }{
		{"Checkstyle:JavadocVariable", "PMD:FieldNamingConventions", "a missing Javadoc and a name, on one field (the sample)"},
		{"Checkstyle:ConstantName", "PMD:CommentRequired", "a name and a missing Javadoc, on one field (the sample)"},
		{"Checkstyle:MissingJavadocMethod", "PMD:MethodArgumentCouldBeFinal", "a missing Javadoc and a parameter, on one line (the sample)"},
		{"Checkstyle:FinalParameters", "Checkstyle:HiddenField", "a parameter not final and a parameter hiding a field (the sample)"},
		{"PMD:CloseResource", "PMD:LocalVariableCouldBeFinal", "a resource left open and a variable not final, on one declaration (the sample)"},
		{"PMD:CloseResource", "SpotBugs:SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE", "a resource left open and an SQL injection, on one line (the sample)"},
		{"PMD:AvoidFileStream", "PMD:CloseResource", "a FileReader and a reader left open, on one line (the sample)"},
		{"SpotBugs:DM_DEFAULT_ENCODING", "SpotBugs:OS_OPEN_STREAM", "the default charset and a stream left open, on one line (the sample)"},
		{"PMD:AvoidLiteralsInIfCondition", "PMD:CompareObjectsWithEquals", "a literal in a condition and ==, in one condition (the sample)"},
		{"PMD:SimplifyBooleanReturns", "SpotBugs:HE_EQUALS_USE_HASHCODE", "an if returning true or false inside an equals() without hashCode() (the sample)"},
		{"PMD:MethodArgumentCouldBeFinal", "PMD:AvoidReassigningParameters", "both Sonar S1226, but one fires where a parameter is never assigned, the other where it is"},
		{"Checkstyle:FinalParameters", "Checkstyle:ParameterAssignment", "a parameter not final and a parameter assigned"},
		{"PMD:SignatureDeclareThrowsException", "PMD:AvoidThrowingRawExceptionTypes", "both Sonar S112: throws Exception declared, and a raw exception thrown"},
		{"PMD:ShortVariable", "PMD:LocalVariableNamingConventions", "both Sonar S117: a name's length and its case"},
		{"PMD:LongVariable", "Checkstyle:LocalVariableName", "a name's length and its pattern"},
		{"PMD:ShortMethodName", "Checkstyle:MethodName", "both Sonar S100: a name's length and its pattern"},
		{"SpotBugs:EI_EXPOSE_REP", "SpotBugs:EI_EXPOSE_REP2", "both Sonar S2384: an array returned and an array stored"},
		{"PMD:MethodReturnsInternalArray", "PMD:ArrayIsStoredDirectly", "both Sonar S2384: an array returned and an array stored"},
		{"Checkstyle:MissingSwitchDefault", "Checkstyle:DefaultComesLast", "both Sonar S131 in sonar-pmd: no default, and a default not last"},
		{"PMD:EmptyCatchBlock", "PMD:EmptyControlStatement", "both Sonar S108: an ignored exception and an empty if or loop"},
		{"Checkstyle:EmptyCatchBlock", "Checkstyle:EmptyBlock", "an ignored exception and an empty if or loop"},
		{"PMD:UnusedFormalParameter", "PMD:UnusedPrivateMethod", "an unused parameter and an unused method, on one declaration (the corpus)"},
		{"PMD:CyclomaticComplexity", "PMD:NPathComplexity", "two metrics on one method (the corpus)"},
		{"PMD:NcssCount", "PMD:CyclomaticComplexity", "two metrics on one method"},
		{"SpotBugs:NP_ALWAYS_NULL", "SpotBugs:NP_LOAD_OF_KNOWN_NULL_VALUE", "a null dereference and a load of a known null (the corpus)"},
		{"Checkstyle:MagicNumber", "PMD:UseUnderscoresInNumericLiterals", "a magic number and digits without underscores (commons-lang)"},
		{"Checkstyle:LineLength", "PMD:CommentSize", "a long line and a long comment, which may be long in lines"},
		{"Checkstyle:JavadocVariable", "PMD:ShortVariable", "a missing Javadoc and a short name (commons-lang)"},
		{"Checkstyle:MethodName", "PMD:UnitTestContainsTooManyAsserts", "a name and a test's asserts (commons-lang)"},
		{"PMD:UnusedLocalVariable", "PMD:UnusedFormalParameter", "a local variable and a parameter"},
		{"Checkstyle:EqualsHashCode", "Checkstyle:CovariantEquals", "equals() without hashCode() and an equals() of the wrong type"},
		{"SpotBugs:HE_EQUALS_USE_HASHCODE", "SpotBugs:EQ_SELF_USE_OBJECT", "equals() without hashCode() and an equals() of the wrong type"},
		{"PMD:StringInstantiation", "PMD:PrimitiveWrapperInstantiation", "a new String and a new Integer"},
	}
	for _, p := range pairs {
		a, b := classOfRule(t, p.a), classOfRule(t, p.b)
		if a >= 0 && a == b {
			t.Errorf("%s and %s are in one class (%q), but they report different problems: %s", p.a, p.b, RuleClasses[a].Problem, p.why)
		}
	}
}

// TestDuplicatesTableDocumented: docs/formats.md's Duplicates section shows
// RuleClasses row for row.
func TestDuplicatesTableDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/formats.md")
	if err != nil {
		t.Skipf("no docs: %v", err)
	}
	section := string(doc)
	start := strings.Index(section, "\n## Duplicates")
	if start < 0 {
		t.Fatal("docs/formats.md has no Duplicates section")
	}
	section = section[start+1:]
	if end := strings.Index(section, "\n## "); end > 0 {
		section = section[:end]
	}
	var rows []RuleClass
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 || !strings.HasPrefix(cells[1], "`") {
			continue
		}
		var rules []string
		for _, r := range strings.Split(cells[1], ", ") {
			rules = append(rules, strings.Trim(r, "`"))
		}
		rows = append(rows, RuleClass{Problem: cells[0], Rules: rules, Evidence: cells[2]})
	}
	if diff := cmp.Diff(RuleClasses, rows); diff != "" {
		t.Errorf("docs/formats.md's duplicates table differs from RuleClasses (-code +docs):\n%s", diff)
	}
}

// classOfInputs are what ClassOf is asked in a report of the three tools: a
// Checkstyle check's class name, PMD's and SpotBugs' short names, rules in
// no class, another tool.
var classOfInputs = []struct{ tool, rule string }{
	{"Checkstyle", "com.puppycrawl.tools.checkstyle.checks.blocks.NeedBracesCheck"},
	{"Checkstyle", "com.puppycrawl.tools.checkstyle.checks.javadoc.MissingJavadocMethodCheck"},
	{"Checkstyle", "com.puppycrawl.tools.checkstyle.checks.design.DesignForExtensionCheck"},
	{"PMD", "ControlStatementBraces"},
	{"PMD", "LawOfDemeter"},
	{"SpotBugs", "ES_COMPARING_STRINGS_WITH_EQ"},
	{"FindBugs", "EI_EXPOSE_REP"},
	{"ESLint", "no-unused-vars"},
}

func TestClassOfAllocatesNothing(t *testing.T) {
	for _, in := range classOfInputs {
		if n := testing.AllocsPerRun(100, func() { ClassOf(in.tool, in.rule) }); n != 0 {
			t.Errorf("ClassOf(%q, %q) allocates %v times", in.tool, in.rule, n)
		}
	}
}

func BenchmarkClassOf(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for i := 0; i < b.N; i++ {
		in := classOfInputs[i%len(classOfInputs)]
		if ClassOf(in.tool, in.rule) >= 0 {
			n++
		}
	}
	if b.N >= len(classOfInputs) && n == 0 {
		b.Fatal("no class found")
	}
}
