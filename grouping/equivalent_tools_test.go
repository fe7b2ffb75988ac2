package grouping_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

// classFiles names, for each class of grouping.RuleClasses (by one of its
// rules), the file of testdata/duplicates/src/main/java that makes each of
// its tools report it. Where a tool places its finding on a line another
// does not (SpotBugs on a method's or class's first line of code, Checkstyle
// on a declaration's first token, an annotation, PMD on its name), the file
// writes the declaration on one line, so that the places overlap; the
// places are compared as they are in docs/formats.md, "Duplicates".
var classFiles = map[string]string{
	"PMD:ControlStatementBraces":                        "dup/Braces.java",
	"PMD:CompareObjectsWithEquals":                      "dup/StringEquality.java",
	"PMD:CloseResource":                                 "dup/Resources.java",
	"PMD:EmptyCatchBlock":                               "dup/EmptyCatch.java",
	"PMD:EmptyControlStatement":                         "dup/EmptyBlocks.java",
	"PMD:UseLocaleWithCaseConversions":                  "dup/CaseConversion.java",
	"PMD:RelianceOnDefaultCharset":                      "dup/DefaultCharset.java",
	"PMD:SimplifyBooleanReturns":                        "dup/BooleanReturn.java",
	"PMD:SimplifyBooleanExpressions":                    "dup/BooleanExpression.java",
	"PMD:MethodArgumentCouldBeFinal":                    "dup/FinalParameters.java",
	"PMD:LocalVariableCouldBeFinal":                     "dup/FinalLocals.java",
	"PMD:AvoidLiteralsInIfCondition":                    "dup/MagicNumbers.java",
	"PMD:UnnecessaryImport":                             "dup/Imports.java",
	"PMD:OnDemandImport":                                "dup/StarImports.java",
	"PMD:OverrideBothEqualsAndHashcode":                 "dup/EqualsHashCode.java",
	"PMD:NonExhaustiveSwitch":                           "dup/SwitchDefault.java",
	"PMD:ImplicitSwitchFallThrough":                     "dup/FallThrough.java",
	"PMD:DefaultLabelNotLastInSwitch":                   "dup/DefaultFirst.java",
	"PMD:AssignmentInOperand":                           "dup/InnerAssignment.java",
	"PMD:OneDeclarationPerLine":                         "dup/MultipleDeclarations.java",
	"PMD:AvoidReassigningParameters":                    "dup/ParameterAssignment.java",
	"PMD:AvoidReassigningLoopVariables":                 "dup/LoopVariable.java",
	"PMD:UnnecessaryModifier":                           "dup/RedundantModifier.java",
	"PMD:ModifierOrder":                                 "dup/ModifierOrder.java",
	"PMD:CStyleArrayDeclaration":                        "dup/ArrayStyle.java",
	"PMD:LongLiteralEndingWithLowercaseL":               "dup/LongLiteral.java",
	"PMD:UnnecessarySemicolon":                          "dup/Semicolons.java",
	"PMD:UselessParentheses":                            "dup/Parentheses.java",
	"PMD:CommentRequired":                               "dup/MissingJavadoc.java",
	"PMD:DanglingJavadoc":                               "dup/DanglingJavadoc.java",
	"PMD:ClassNamingConventions":                        "dup/Naming.java",
	"PMD:MethodNamingConventions":                       "dup/Naming.java",
	"PMD:FieldNamingConventions":                        "dup/Naming.java",
	"PMD:LocalVariableNamingConventions":                "dup/Naming.java",
	"PMD:FormalParameterNamingConventions":              "dup/Naming.java",
	"PMD:TypeParameterNamingConventions":                "dup/Naming.java",
	"PMD:PackageCase":                                   "Names/PackageName.java",
	"PMD:InstantiableUtilityClass":                      "dup/UtilityClass.java",
	"PMD:ClassWithOnlyPrivateConstructorsShouldBeFinal": "dup/FinalClass.java",
	"PMD:AtLeastOneConstructor":                         "dup/MissingConstructor.java",
	"PMD:ExcessiveParameterList":                        "dup/ParameterNumber.java",
	"PMD:CyclomaticComplexity":                          "dup/Complexity.java",
	"PMD:NPathComplexity":                               "dup/Complexity.java",
	"PMD:NcssCount":                                     "dup/Complexity.java",
	"PMD:AvoidDeeplyNestedIfStmts":                      "dup/NestedIf.java",
	"PMD:AvoidDuplicateLiterals":                        "dup/DuplicateLiterals.java",
	"PMD:AvoidCatchingGenericException":                 "dup/GenericCatch.java",
	"PMD:FinalizeDoesNotCallSuperFinalize":              "dup/SuperFinalize.java",
	"PMD:ProperCloneImplementation":                     "dup/SuperClone.java",
	"PMD:SuspiciousEqualsMethodName":                    "dup/CovariantEquals.java",
	"PMD:VariableDeclarationUsageDistance":              "dup/DeclarationDistance.java",
	"PMD:TypeNameMismatch":                              "dup/FileName.java",
	"PMD:MissingOverride":                               "dup/MissingOverride.java",
	"PMD:RedundantFieldInitializer":                     "dup/ExplicitInitialization.java",
	"PMD:UnnecessaryBlock":                              "dup/NestedBlocks.java",
	"PMD:LooseCoupling":                                 "dup/LooseCoupling.java",
	"PMD:MethodReturnsInternalArray":                    "dup/InternalArray.java",
	"PMD:ArrayIsStoredDirectly":                         "dup/InternalArray.java",
	"PMD:UseStringBufferForStringAppends":               "dup/ConcatInLoop.java",
	"PMD:UnusedPrivateMethod":                           "dup/UnusedMethod.java",
	"PMD:UnusedPrivateField":                            "dup/UnusedField.java",
	"PMD:UnusedLocalVariable":                           "dup/DeadStore.java",
	"PMD:DoNotCallGarbageCollectionExplicitly":          "dup/GarbageCollection.java",
	"PMD:DontCallThreadRun":                             "dup/ThreadRun.java",
	"PMD:UseNotifyAllInsteadOfNotify":                   "dup/NotifyAll.java",
	"PMD:AvoidDecimalLiteralsInBigDecimalConstructor":   "dup/BigDecimalDouble.java",
	"PMD:IdempotentOperations":                          "dup/SelfAssignment.java",
	"PMD:EqualsNull":                                    "dup/EqualsNull.java",
	"PMD:StringToString":                                "dup/StringToString.java",
	"PMD:InstantiationToGetClass":                       "dup/NewForGetClass.java",
	"PMD:PrimitiveWrapperInstantiation":                 "dup/WrapperConstructor.java",
	"PMD:StringInstantiation":                           "dup/WrapperConstructor.java",
	"PMD:MissingSerialVersionUID":                       "dup/SerialVersion.java",
	"PMD:DoubleCheckedLocking":                          "dup/DoubleChecked.java",
	"PMD:SuspiciousHashcodeMethodName":                  "dup/HashcodeName.java",
	"PMD:NonThreadSafeSingleton":                        "dup/LazySingleton.java",
	"PMD:FinalFieldCouldBeStatic":                       "dup/StaticField.java",
	"PMD:DoNotTerminateVM":                              "dup/TerminateVM.java",
	"PMD:UnusedReturnValue":                             "dup/IgnoredRead.java",
}

// notProduced are the rules of the table that the tools the tests run (PMD
// 7, Checkstyle 8.36, FindBugs 3.1) do not report, and why; a renamed rule's
// new name must be in its class and be reported.
var notProduced = map[string]struct{ renamed, why string }{
	"PMD:IfStmtsMustUseBraces":            {"PMD:ControlStatementBraces", "PMD 6 name, removed in PMD 7"},
	"PMD:IfElseStmtsMustUseBraces":        {"PMD:ControlStatementBraces", "PMD 6 name, removed in PMD 7"},
	"PMD:WhileLoopsMustUseBraces":         {"PMD:ControlStatementBraces", "PMD 6 name, removed in PMD 7"},
	"PMD:ForLoopsMustUseBraces":           {"PMD:ControlStatementBraces", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptyIfStmt":                     {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptyWhileStmt":                  {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptyTryBlock":                   {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptyFinallyBlock":               {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptySwitchStatements":           {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptySynchronizedBlock":          {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptyStatementBlock":             {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:EmptyInitializer":                {"PMD:EmptyControlStatement", "PMD 6 name, removed in PMD 7"},
	"PMD:UnusedImports":                   {"PMD:UnnecessaryImport", "PMD 6 name, removed in PMD 7"},
	"PMD:DuplicateImports":                {"PMD:UnnecessaryImport", "PMD 6 name, removed in PMD 7"},
	"PMD:DontImportJavaLang":              {"PMD:UnnecessaryImport", "PMD 6 name, removed in PMD 7"},
	"PMD:ImportFromSamePackage":           {"PMD:UnnecessaryImport", "PMD 6 name, removed in PMD 7"},
	"PMD:SwitchStmtsShouldHaveDefault":    {"PMD:NonExhaustiveSwitch", "PMD 6 name, renamed in PMD 7"},
	"PMD:MissingBreakInSwitch":            {"PMD:ImplicitSwitchFallThrough", "PMD 6 name, renamed in PMD 6.37"},
	"PMD:DefaultLabelNotLastInSwitchStmt": {"PMD:DefaultLabelNotLastInSwitch", "PMD 6 name, renamed in PMD 7"},
	"PMD:EmptyStatementNotInLoop":         {"PMD:UnnecessarySemicolon", "PMD 6 name, removed in PMD 7"},
	"PMD:UseUtilityClass":                 {"PMD:InstantiableUtilityClass", "renamed in PMD 7.27"},
	"PMD:NcssMethodCount":                 {"PMD:NcssCount", "PMD 6 name, removed in PMD 7"},
	"PMD:NcssTypeCount":                   {"PMD:NcssCount", "PMD 6 name, removed in PMD 7"},
	"PMD:NcssConstructorCount":            {"PMD:NcssCount", "PMD 6 name, removed in PMD 7"},
	"PMD:IntegerInstantiation":            {"PMD:PrimitiveWrapperInstantiation", "PMD 6 name, removed in PMD 7"},
	"PMD:LongInstantiation":               {"PMD:PrimitiveWrapperInstantiation", "PMD 6 name, removed in PMD 7"},
	"PMD:ShortInstantiation":              {"PMD:PrimitiveWrapperInstantiation", "PMD 6 name, removed in PMD 7"},
	"PMD:ByteInstantiation":               {"PMD:PrimitiveWrapperInstantiation", "PMD 6 name, removed in PMD 7"},
	"PMD:BooleanInstantiation":            {"PMD:PrimitiveWrapperInstantiation", "PMD 6 name, removed in PMD 7"},
	"Checkstyle:UnusedLocalVariable":      {"", "Checkstyle 10.3 and later"},
	"PMD:DoNotCallSystemExit":             {"PMD:DoNotTerminateVM", "PMD 6 name, removed in PMD 7"},
}

// duplicatesReports runs the real tools on a copy of testdata/duplicates and
// returns the findings of their reports, paths relative to the copy. PMD 7
// (all Java rules) and Checkstyle (testdata/duplicates/checkstyle.xml) run,
// or the test is skipped; FindBugs runs when it is installed (spotBugs says
// whether it ran).
func duplicatesReports(t *testing.T) (findings []reports.Finding, spotBugs bool) {
	t.Helper()
	pmd, checkstyle := tooltest.PMD(t), tooltest.Checkstyle(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(reportstest.RepoRoot(t), "testdata", "duplicates"))); err != nil {
		t.Fatal(err)
	}
	pmdReport, csReport, fbReport := filepath.Join(dir, "pmd.sarif"), filepath.Join(dir, "checkstyle.xml.out"), filepath.Join(dir, "findbugs.xml")
	_, fbErr := exec.LookPath("findbugs")
	_, javacErr := exec.LookPath("javac")
	t.Run("tools", func(t *testing.T) {
		t.Run("PMD", func(t *testing.T) {
			t.Parallel()
			tooltest.Run(t, dir, pmdReport, pmd, "check", "--no-progress", "--no-cache", "-d", "src", "-R", tooltest.PMDRules, "-f", "sarif", "-r", pmdReport)
		})
		t.Run("Checkstyle", func(t *testing.T) {
			t.Parallel()
			tooltest.Run(t, dir, csReport, checkstyle, "-c", "checkstyle.xml", "-f", "xml", "-o", csReport, "src")
		})
		t.Run("FindBugs", func(t *testing.T) {
			if fbErr != nil || javacErr != nil {
				t.Skipf("FindBugs not run (apt-get install findbugs, and a JDK): %v %v", fbErr, javacErr)
			}
			t.Parallel()
			tooltest.RunFindBugs(t, dir, filepath.Join("src", "main", "java"), fbReport)
		})
	})
	if t.Failed() {
		t.FailNow()
	}
	spotBugs = fbErr == nil && javacErr == nil
	names := []string{pmdReport, csReport}
	if spotBugs {
		names = append(names, fbReport)
	}
	inputs, err := parsers.ReadAll(names, parsers.ReadOptions{Root: dir}, func(f reports.Finding) error {
		findings = append(findings, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		if in.Error != "" {
			t.Fatalf("%s: %s", in.Path, in.Error)
		}
	}
	return findings, spotBugs
}

// TestRuleClassesInRealReports runs PMD 7, Checkstyle and (when installed)
// FindBugs on testdata/duplicates and shows each row of grouping.RuleClasses
// in their reports: in the file that shows the class, every finding of a rule
// of the class has a finding of another rule of the class on overlapping
// lines, and every rule of the table is reported there (but for the rules in
// notProduced, and SpotBugs' when FindBugs is absent).
func TestRuleClassesInRealReports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PMD, Checkstyle and FindBugs")
	}
	checkClassFiles(t)
	findings, spotBugs := duplicatesReports(t)
	byFile := map[string][]reports.Finding{}
	for _, f := range findings {
		byFile[strings.TrimPrefix(f.Path, "src/main/java/")] = append(byFile[strings.TrimPrefix(f.Path, "src/main/java/")], f)
	}
	shown := map[string]bool{}
	for class, file := range classOfFile(t) {
		for _, f := range byFile[file] {
			if grouping.ClassOf(f.Tool, f.Rule) != class {
				continue
			}
			rule := tableRule(f)
			if partner := partnerOf(f, byFile[file]); partner != nil {
				if shown[rule] {
					continue
				}
				shown[rule] = true
				t.Logf("%s:%d %s with %s:%d %s (%s)", file, f.Line, rule, file, partner.Line, tableRule(*partner), grouping.RuleClasses[class].Problem)
			} else {
				t.Errorf("%s:%d-%d: %s has no finding of another rule of its class (%q) on the same lines", file, f.Line, f.EndLine, rule, grouping.RuleClasses[class].Problem)
			}
		}
	}
	var missing []string
	for _, c := range grouping.RuleClasses {
		for _, r := range c.Rules {
			switch np, ok := notProduced[r]; {
			case shown[r]:
				if ok {
					t.Errorf("%s is reported: it is not in notProduced (%s)", r, np.why)
				}
			case ok:
				if np.renamed != "" && !shown[np.renamed] {
					t.Errorf("%s (%s) is %s, which is not reported", r, np.why, np.renamed)
				}
				t.Logf("%s: not reported by the tools run here (%s)", r, np.why)
			case strings.HasPrefix(r, "SpotBugs:") && !spotBugs:
				t.Logf("%s: not checked, FindBugs is not installed", r)
			default:
				missing = append(missing, r)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("no real tool reported these rules of the table in their class's file: %s", strings.Join(missing, ", "))
	}
	unpaired(t, byFile)
	naturalProblems(t, byFile["natural/Natural.java"], spotBugs)
}

// naturalProblems: in natural/Natural.java, written as code usually is, the
// findings one line apart because of where each tool places them (an
// annotation's line, the declaration's line, the method's first line of
// code: grouping.Anchors) are grouped into one problem each by the grouper.
func naturalProblems(t *testing.T, fs []reports.Finding, spotBugs bool) {
	t.Helper()
	g := grouping.NewGrouper(grouping.ClassOf)
	for i := range fs {
		g.Add(&fs[i], grouping.Ref{N: uint32(i)})
	}
	gs := g.Resolve(nil)
	got := map[string]bool{}
	for i := range fs {
		others := gs.Others(grouping.Ref{N: uint32(i)})
		if len(others) == 0 {
			continue
		}
		p := []string{fmt.Sprintf("%d %s", fs[i].Line, tableRule(fs[i]))}
		for _, o := range others {
			p = append(p, fmt.Sprintf("%d %s", fs[o.N].Line, tableRule(fs[o.N])))
		}
		sort.Strings(p)
		got[strings.Join(p, " + ")] = true
	}
	want := []string{
		"10 PMD:CommentRequired + 9 Checkstyle:JavadocVariable",
		"41 Checkstyle:MissingJavadocMethod + 42 PMD:CommentRequired",
		"29 Checkstyle:EqualsHashCode + 30 PMD:OverrideBothEqualsAndHashcode",
	}
	if spotBugs {
		want[2] += " + 31 SpotBugs:HE_EQUALS_USE_HASHCODE"
		want = append(want, "46 PMD:UnusedPrivateMethod + 47 SpotBugs:UPM_UNCALLED_PRIVATE_METHOD",
			"35 Checkstyle:SuperClone + 35 PMD:ProperCloneImplementation + 36 SpotBugs:CN_IDIOM_NO_SUPER_CALL")
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("natural/Natural.java: no problem %s; problems: %v", w, got)
		}
	}
}

// checkClassFiles: every class has a file, named by a rule of its own.
func checkClassFiles(t *testing.T) {
	t.Helper()
	seen := map[int]string{}
	for rule := range classFiles {
		tool, name, _ := strings.Cut(rule, ":")
		class := grouping.ClassOf(tool, name)
		if class < 0 {
			t.Errorf("classFiles: %s is in no class", rule)
			continue
		}
		if other, ok := seen[class]; ok {
			t.Errorf("classFiles: %s and %s name one class", rule, other)
		}
		seen[class] = rule
	}
	for i, c := range grouping.RuleClasses {
		if _, ok := seen[i]; !ok {
			t.Errorf("class %q has no file in classFiles", c.Problem)
		}
	}
}

// classOfFile maps each class to its file.
func classOfFile(t *testing.T) map[int]string {
	out := map[int]string{}
	for rule, file := range classFiles {
		tool, name, _ := strings.Cut(rule, ":")
		out[grouping.ClassOf(tool, name)] = file
	}
	return out
}

// tableRule writes a finding's rule as the table does: "Tool:ShortName",
// FindBugs as SpotBugs.
func tableRule(f reports.Finding) string {
	tool := f.Tool
	if strings.EqualFold(tool, "FindBugs") {
		tool = "SpotBugs"
	}
	return tool + ":" + reports.ShortRule(f.Tool, f.Rule)
}

// lines is a finding's first and last line.
func lines(f reports.Finding) (int, int) {
	return f.Line, max(f.Line, f.EndLine)
}

// overlap reports whether two findings of one file share a line.
func overlap(a, b reports.Finding) bool {
	a1, a2 := lines(a)
	b1, b2 := lines(b)
	return a.Line > 0 && b.Line > 0 && a1 <= b2 && b1 <= a2
}

// partnerOf returns a finding of fs of another rule of f's class on lines
// that overlap f's, or nil.
func partnerOf(f reports.Finding, fs []reports.Finding) *reports.Finding {
	class, rule := grouping.ClassOf(f.Tool, f.Rule), tableRule(f)
	for i := range fs {
		if grouping.ClassOf(fs[i].Tool, fs[i].Rule) == class && tableRule(fs[i]) != rule && overlap(f, fs[i]) {
			return &fs[i]
		}
	}
	return nil
}

// unpaired logs the findings of the table's rules, in files made for other
// classes, that have no partner: the tools' scopes differ (Checkstyle's
// MagicNumber reports numbers everywhere, PMD's rule only in conditions).
func unpaired(t *testing.T, byFile map[string][]reports.Finding) {
	var out []string
	for file, fs := range byFile {
		for _, f := range fs {
			if class := grouping.ClassOf(f.Tool, f.Rule); class >= 0 && classOfFile(t)[class] != file && partnerOf(f, fs) == nil {
				out = append(out, fmt.Sprintf("%s:%d %s", file, f.Line, tableRule(f)))
			}
		}
	}
	sort.Strings(out)
	t.Logf("%d findings of the table's rules without a partner, outside their class's file (the tools' scopes differ):\n%s", len(out), strings.Join(out, "\n"))
}
