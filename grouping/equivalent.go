package grouping

import (
	"strings"

	"github.com/recap-dev/recap/reports"
)

// A RuleClass is a set of rules, of one tool or several, that report the same
// problem: findings of rules of one class at the same place are one problem
// reported several times (docs/formats.md, "Duplicates").
type RuleClass struct {
	// Problem is what they all report, in a few words: "a control statement
	// without braces".
	Problem string
	// Rules are written "Tool:Rule", the rule's short name as [reports.ShortRule]
	// gives it: "Checkstyle:NeedBraces", "PMD:ControlStatementBraces",
	// "SpotBugs:DM_CONVERT_CASE". Tools are Checkstyle, PMD and SpotBugs
	// (FindBugs is SpotBugs).
	Rules []string
	// Evidence says where the equivalence is documented, in one line: the
	// Sonar rule the SonarQube plugins map the rules to (sonar-pmd's
	// rule_alternatives.json and rule descriptions, sonar-findbugs' rule
	// descriptions: "This rule is deprecated, use {rule:squid:S2095}
	// instead"), or the tools' own docs.
	Evidence string
}

// RuleClasses is recap's table of rules that report the same problem, for
// the Java rules of Checkstyle (8.36 and current), PMD (6 and 7 names) and
// SpotBugs/FindBugs. A rule is in one class at most. Two rules share a class
// only when they report the same problem wherever both fire: a Sonar rule
// both map to is evidence, not proof (sonar-pmd maps both
// MethodArgumentCouldBeFinal and AvoidReassigningParameters to S1226, which
// fire on opposite conditions; they stay apart). docs/formats.md shows the
// table row for row, and a test runs the real tools on testdata/duplicates
// to show each row in real reports.
var RuleClasses = []RuleClass{
	{
		Problem:  "a control statement without braces",
		Rules:    []string{"Checkstyle:NeedBraces", "PMD:ControlStatementBraces", "PMD:IfStmtsMustUseBraces", "PMD:IfElseStmtsMustUseBraces", "PMD:WhileLoopsMustUseBraces", "PMD:ForLoopsMustUseBraces"},
		Evidence: "Sonar S121 (sonar-pmd: IfStmtsMustUseBraces; PMD 6.2's ControlStatementBraces replaces the four PMD rules); Checkstyle docs",
	},
	{
		Problem:  "objects or strings compared with == or != instead of equals()",
		Rules:    []string{"Checkstyle:StringLiteralEquality", "PMD:CompareObjectsWithEquals", "PMD:UseEqualsToCompareStrings", "SpotBugs:ES_COMPARING_STRINGS_WITH_EQ", "SpotBugs:ES_COMPARING_PARAMETER_STRING_WITH_EQ"},
		Evidence: "Sonar S1698 (sonar-pmd: both PMD rules) and StringEqualityComparisonCheck (sonar-pmd: UseEqualsToCompareStrings; sonar-findbugs: both ES rules); Checkstyle docs",
	},
	{
		Problem:  "a resource not closed on every path",
		Rules:    []string{"PMD:CloseResource", "SpotBugs:OS_OPEN_STREAM", "SpotBugs:OS_OPEN_STREAM_EXCEPTION_PATH", "SpotBugs:ODR_OPEN_DATABASE_RESOURCE", "SpotBugs:ODR_OPEN_DATABASE_RESOURCE_EXCEPTION_PATH", "SpotBugs:OBL_UNSATISFIED_OBLIGATION", "SpotBugs:OBL_UNSATISFIED_OBLIGATION_EXCEPTION_EDGE"},
		Evidence: "Sonar S2095 (sonar-pmd: CloseResource; sonar-findbugs: OS_OPEN_STREAM, ODR_OPEN_DATABASE_RESOURCE and its _EXCEPTION_PATH, OBL_UNSATISFIED_OBLIGATION); SpotBugs docs",
	},
	{
		Problem:  "an empty catch block: the exception is ignored",
		Rules:    []string{"Checkstyle:EmptyCatchBlock", "PMD:EmptyCatchBlock", "SpotBugs:DE_MIGHT_IGNORE"},
		Evidence: "Sonar S108 (sonar-pmd: EmptyCatchBlock; sonar-findbugs: DE_MIGHT_IGNORE); Checkstyle docs",
	},
	{
		Problem:  "a control statement with an empty body",
		Rules:    []string{"Checkstyle:EmptyBlock", "PMD:EmptyControlStatement", "PMD:EmptyIfStmt", "PMD:EmptyWhileStmt", "PMD:EmptyTryBlock", "PMD:EmptyFinallyBlock", "PMD:EmptySwitchStatements", "PMD:EmptySynchronizedBlock", "PMD:EmptyStatementBlock", "PMD:EmptyInitializer"},
		Evidence: "PMD docs (6.46's EmptyControlStatement replaces the eight Empty* rules); Checkstyle docs (EmptyBlock's default tokens); Sonar S108 (sonar-pmd: EmptyIfStmt)",
	},
	{
		Problem:  "a case conversion that depends on the default locale",
		Rules:    []string{"PMD:UseLocaleWithCaseConversions", "SpotBugs:DM_CONVERT_CASE"},
		Evidence: "PMD and SpotBugs docs",
	},
	{
		Problem:  "bytes and text converted with the default charset",
		Rules:    []string{"PMD:RelianceOnDefaultCharset", "SpotBugs:DM_DEFAULT_ENCODING"},
		Evidence: "Sonar S1943 (sonar-findbugs: DM_DEFAULT_ENCODING); PMD docs",
	},
	{
		Problem:  "an if statement that returns true or false instead of its condition",
		Rules:    []string{"Checkstyle:SimplifyBooleanReturn", "PMD:SimplifyBooleanReturns"},
		Evidence: "Sonar S1126 (sonar-pmd: SimplifyBooleanReturns); Checkstyle docs",
	},
	{
		Problem:  "a boolean compared with true or false",
		Rules:    []string{"Checkstyle:SimplifyBooleanExpression", "PMD:SimplifyBooleanExpressions"},
		Evidence: "Sonar S1125 (sonar-pmd: SimplifyBooleanExpressions); Checkstyle docs",
	},
	{
		Problem:  "a parameter that is not declared final",
		Rules:    []string{"Checkstyle:FinalParameters", "PMD:MethodArgumentCouldBeFinal"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a local variable that is never reassigned and not declared final",
		Rules:    []string{"Checkstyle:FinalLocalVariable", "PMD:LocalVariableCouldBeFinal"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a number that should be a named constant (magic number)",
		Rules:    []string{"Checkstyle:MagicNumber", "PMD:AvoidLiteralsInIfCondition"},
		Evidence: "Sonar S109 (sonar-pmd: AvoidLiteralsInIfCondition); Checkstyle and PMD docs",
	},
	{
		Problem:  "an import that can be removed: unused, duplicate, from java.lang or the same package",
		Rules:    []string{"Checkstyle:UnusedImports", "Checkstyle:RedundantImport", "PMD:UnnecessaryImport", "PMD:UnusedImports", "PMD:DuplicateImports", "PMD:DontImportJavaLang", "PMD:ImportFromSamePackage"},
		Evidence: "Sonar UselessImportCheck, S1128 (sonar-pmd: UnusedImports, DuplicateImports); PMD 6.34's UnnecessaryImport replaces the four PMD rules; Checkstyle docs",
	},
	{
		Problem:  "an import on demand (import java.util.*)",
		Rules:    []string{"Checkstyle:AvoidStarImport", "PMD:OnDemandImport"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "equals() without hashCode(), or hashCode() without equals()",
		Rules:    []string{"Checkstyle:EqualsHashCode", "PMD:OverrideBothEqualsAndHashcode", "SpotBugs:HE_EQUALS_USE_HASHCODE", "SpotBugs:HE_HASHCODE_USE_OBJECT_EQUALS"},
		Evidence: "Sonar S1206 (sonar-pmd: OverrideBothEqualsAndHashcode); Checkstyle and SpotBugs docs",
	},
	{
		Problem:  "a switch without a default case",
		Rules:    []string{"Checkstyle:MissingSwitchDefault", "PMD:NonExhaustiveSwitch", "PMD:SwitchStmtsShouldHaveDefault", "SpotBugs:SF_SWITCH_NO_DEFAULT"},
		Evidence: "Sonar SwitchLastCaseIsDefaultCheck, S131 (sonar-pmd: SwitchStmtsShouldHaveDefault, renamed NonExhaustiveSwitch in PMD 7); Checkstyle and SpotBugs docs",
	},
	{
		Problem:  "a switch case that falls through to the next",
		Rules:    []string{"Checkstyle:FallThrough", "PMD:ImplicitSwitchFallThrough", "PMD:MissingBreakInSwitch", "SpotBugs:SF_SWITCH_FALLTHROUGH"},
		Evidence: "Sonar S128 (sonar-pmd: MissingBreakInSwitch, renamed ImplicitSwitchFallThrough in PMD 6.37; sonar-findbugs: SF_SWITCH_FALLTHROUGH); Checkstyle docs",
	},
	{
		Problem:  "a default case that is not the last of its switch",
		Rules:    []string{"Checkstyle:DefaultComesLast", "PMD:DefaultLabelNotLastInSwitch", "PMD:DefaultLabelNotLastInSwitchStmt"},
		Evidence: "Checkstyle and PMD docs (DefaultLabelNotLastInSwitchStmt renamed in PMD 7)",
	},
	{
		Problem:  "an assignment inside an expression",
		Rules:    []string{"Checkstyle:InnerAssignment", "PMD:AssignmentInOperand"},
		Evidence: "Sonar S1121, AssignmentInSubExpressionCheck (sonar-pmd: AssignmentInOperand); Checkstyle docs",
	},
	{
		Problem:  "several variables declared in one statement",
		Rules:    []string{"Checkstyle:MultipleVariableDeclarations", "PMD:OneDeclarationPerLine"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a parameter assigned in the method's body",
		Rules:    []string{"Checkstyle:ParameterAssignment", "PMD:AvoidReassigningParameters"},
		Evidence: "Sonar S1226 (sonar-pmd: AvoidReassigningParameters); Checkstyle docs",
	},
	{
		Problem:  "a loop's control variable changed in its body",
		Rules:    []string{"Checkstyle:ModifiedControlVariable", "PMD:AvoidReassigningLoopVariables"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a modifier that the context already implies",
		Rules:    []string{"Checkstyle:RedundantModifier", "PMD:UnnecessaryModifier"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "modifiers out of the order the Java specification recommends",
		Rules:    []string{"Checkstyle:ModifierOrder", "PMD:ModifierOrder"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "an array declared in C style (int values[])",
		Rules:    []string{"Checkstyle:ArrayTypeStyle", "PMD:CStyleArrayDeclaration"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a long literal ending with a lower-case l",
		Rules:    []string{"Checkstyle:UpperEll", "PMD:LongLiteralEndingWithLowercaseL"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a semicolon that does nothing",
		Rules:    []string{"Checkstyle:EmptyStatement", "Checkstyle:UnnecessarySemicolonAfterTypeMemberDeclaration", "Checkstyle:UnnecessarySemicolonAfterOuterTypeDeclaration", "PMD:UnnecessarySemicolon", "PMD:EmptyStatementNotInLoop"},
		Evidence: "Checkstyle and PMD docs (PMD 6.46's UnnecessarySemicolon replaces EmptyStatementNotInLoop)",
	},
	{
		Problem:  "parentheses that are not needed",
		Rules:    []string{"Checkstyle:UnnecessaryParentheses", "PMD:UselessParentheses"},
		Evidence: "Sonar S1110 (sonar-pmd: UselessParentheses); Checkstyle docs",
	},
	{
		Problem:  "a type, method, constructor or field without a Javadoc comment",
		Rules:    []string{"Checkstyle:MissingJavadocType", "Checkstyle:MissingJavadocMethod", "Checkstyle:JavadocVariable", "PMD:CommentRequired"},
		Evidence: "Checkstyle and PMD docs (CommentRequired requires Javadoc comments on types, methods, constructors and fields)",
	},
	{
		Problem:  "a Javadoc comment where it documents nothing",
		Rules:    []string{"Checkstyle:InvalidJavadocPosition", "PMD:DanglingJavadoc"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a type name that breaks the naming convention",
		Rules:    []string{"Checkstyle:TypeName", "PMD:ClassNamingConventions", "SpotBugs:NM_CLASS_NAMING_CONVENTION"},
		Evidence: "Sonar S101 (sonar-pmd: ClassNamingConventions); Checkstyle and SpotBugs docs",
	},
	{
		Problem:  "a method name that breaks the naming convention",
		Rules:    []string{"Checkstyle:MethodName", "PMD:MethodNamingConventions", "SpotBugs:NM_METHOD_NAMING_CONVENTION"},
		Evidence: "Sonar S100 (sonar-pmd: MethodNamingConventions); Checkstyle and SpotBugs docs",
	},
	{
		Problem:  "a field or constant name that breaks the naming convention",
		Rules:    []string{"Checkstyle:ConstantName", "Checkstyle:StaticVariableName", "Checkstyle:MemberName", "PMD:FieldNamingConventions"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a local variable name that breaks the naming convention",
		Rules:    []string{"Checkstyle:LocalVariableName", "Checkstyle:LocalFinalVariableName", "Checkstyle:CatchParameterName", "PMD:LocalVariableNamingConventions"},
		Evidence: "Checkstyle and PMD docs (LocalVariableNamingConventions also names catch parameters)",
	},
	{
		Problem:  "a parameter name that breaks the naming convention",
		Rules:    []string{"Checkstyle:ParameterName", "Checkstyle:LambdaParameterName", "PMD:FormalParameterNamingConventions"},
		Evidence: "Checkstyle and PMD docs (FormalParameterNamingConventions names method and lambda parameters)",
	},
	{
		Problem:  "a type parameter name that breaks the naming convention",
		Rules:    []string{"Checkstyle:ClassTypeParameterName", "Checkstyle:MethodTypeParameterName", "Checkstyle:InterfaceTypeParameterName", "PMD:TypeParameterNamingConventions", "PMD:GenericsNaming"},
		Evidence: "Sonar S119 (sonar-pmd: GenericsNaming, which PMD 7.17's TypeParameterNamingConventions replaces); Checkstyle docs",
	},
	{
		Problem:  "a package name that breaks the naming convention",
		Rules:    []string{"Checkstyle:PackageName", "PMD:PackageCase"},
		Evidence: "Sonar S120 (sonar-pmd: PackageCase); Checkstyle docs",
	},
	{
		Problem:  "a utility class that can be instantiated",
		Rules:    []string{"Checkstyle:HideUtilityClassConstructor", "PMD:InstantiableUtilityClass", "PMD:UseUtilityClass"},
		Evidence: "Sonar S1118 (sonar-pmd: UseUtilityClass, renamed InstantiableUtilityClass in PMD 7.27); Checkstyle docs",
	},
	{
		Problem:  "a class with only private constructors that is not final",
		Rules:    []string{"Checkstyle:FinalClass", "PMD:ClassWithOnlyPrivateConstructorsShouldBeFinal"},
		Evidence: "Sonar S2974 (sonar-pmd: ClassWithOnlyPrivateConstructorsShouldBeFinal); Checkstyle docs",
	},
	{
		Problem:  "a class without a constructor",
		Rules:    []string{"Checkstyle:MissingCtor", "PMD:AtLeastOneConstructor"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a method with too many parameters",
		Rules:    []string{"Checkstyle:ParameterNumber", "PMD:ExcessiveParameterList"},
		Evidence: "Sonar S107 (sonar-pmd: ExcessiveParameterList); Checkstyle docs",
	},
	{
		Problem:  "a method of too high cyclomatic complexity",
		Rules:    []string{"Checkstyle:CyclomaticComplexity", "PMD:CyclomaticComplexity"},
		Evidence: "Sonar MethodCyclomaticComplexity (sonar-pmd: CyclomaticComplexity); Checkstyle docs",
	},
	{
		Problem:  "a method of too high NPath complexity",
		Rules:    []string{"Checkstyle:NPathComplexity", "PMD:NPathComplexity"},
		Evidence: "Checkstyle and PMD docs (the same metric, Nejmeh's NPath)",
	},
	{
		Problem:  "a method or type with too many statements (NCSS)",
		Rules:    []string{"Checkstyle:JavaNCSS", "PMD:NcssCount", "PMD:NcssMethodCount", "PMD:NcssTypeCount", "PMD:NcssConstructorCount"},
		Evidence: "Checkstyle and PMD docs (the same metric; PMD 6's NcssCount replaces the three PMD rules)",
	},
	{
		Problem:  "if statements nested too deep",
		Rules:    []string{"Checkstyle:NestedIfDepth", "PMD:AvoidDeeplyNestedIfStmts"},
		Evidence: "Sonar S134 (sonar-pmd: AvoidDeeplyNestedIfStmts); Checkstyle docs",
	},
	{
		Problem:  "the same string literal written several times",
		Rules:    []string{"Checkstyle:MultipleStringLiterals", "PMD:AvoidDuplicateLiterals"},
		Evidence: "Sonar S1192 (sonar-pmd: AvoidDuplicateLiterals); Checkstyle docs",
	},
	{
		Problem:  "a catch of a generic exception (Exception, RuntimeException, Throwable)",
		Rules:    []string{"Checkstyle:IllegalCatch", "PMD:AvoidCatchingGenericException", "PMD:AvoidCatchingThrowable"},
		Evidence: "Sonar S2221 and S1181 (sonar-pmd); PMD 7.18 folds AvoidCatchingThrowable into AvoidCatchingGenericException; Checkstyle docs",
	},
	{
		Problem:  "a finalize() that does not call super.finalize()",
		Rules:    []string{"Checkstyle:SuperFinalize", "PMD:FinalizeDoesNotCallSuperFinalize", "SpotBugs:FI_MISSING_SUPER_CALL"},
		Evidence: "Sonar ObjectFinalizeOverridenCallsSuperFinalizeCheck, S1114 (sonar-pmd, sonar-findbugs); Checkstyle docs",
	},
	{
		Problem:  "a clone() that does not call super.clone()",
		Rules:    []string{"Checkstyle:SuperClone", "PMD:ProperCloneImplementation", "SpotBugs:CN_IDIOM_NO_SUPER_CALL"},
		Evidence: "Sonar S1182 (sonar-pmd: ProperCloneImplementation); Checkstyle and SpotBugs docs",
	},
	{
		Problem:  "an equals() that takes its own type, not Object (covariant equals)",
		Rules:    []string{"Checkstyle:CovariantEquals", "PMD:SuspiciousEqualsMethodName", "SpotBugs:EQ_SELF_USE_OBJECT", "SpotBugs:EQ_SELF_NO_OBJECT"},
		Evidence: "Sonar S1201 (sonar-pmd: SuspiciousEqualsMethodName); Checkstyle and SpotBugs docs",
	},
	{
		Problem:  "a variable declared long before its first use",
		Rules:    []string{"Checkstyle:VariableDeclarationUsageDistance", "PMD:VariableDeclarationUsageDistance"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a top-level type not named after its file",
		Rules:    []string{"Checkstyle:OuterTypeFilename", "PMD:TypeNameMismatch"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a method that overrides another without @Override",
		Rules:    []string{"Checkstyle:MissingOverride", "PMD:MissingOverride"},
		Evidence: "Checkstyle and PMD docs (Checkstyle's check looks at methods whose Javadoc says {@inheritDoc})",
	},
	{
		Problem:  "a field explicitly initialized to its type's default value",
		Rules:    []string{"Checkstyle:ExplicitInitialization", "PMD:RedundantFieldInitializer"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a nested block that serves no purpose",
		Rules:    []string{"Checkstyle:AvoidNestedBlocks", "PMD:UnnecessaryBlock"},
		Evidence: "Checkstyle and PMD docs",
	},
	{
		Problem:  "a concrete collection type where its interface would do",
		Rules:    []string{"Checkstyle:IllegalType", "PMD:LooseCoupling"},
		Evidence: "Checkstyle and PMD docs (IllegalType's default types are the collection classes)",
	},
	{
		Problem:  "an internal mutable field (an array) returned to callers",
		Rules:    []string{"PMD:MethodReturnsInternalArray", "SpotBugs:EI_EXPOSE_REP", "SpotBugs:MS_EXPOSE_REP"},
		Evidence: "Sonar S2384 (sonar-pmd: MethodReturnsInternalArray; sonar-findbugs: EI_EXPOSE_REP)",
	},
	{
		Problem:  "a caller's mutable object (an array) stored in a field as it is",
		Rules:    []string{"PMD:ArrayIsStoredDirectly", "SpotBugs:EI_EXPOSE_REP2"},
		Evidence: "Sonar S2384 (sonar-pmd: ArrayIsStoredDirectly; sonar-findbugs: EI_EXPOSE_REP2)",
	},
	{
		Problem:  "a string built with + in a loop",
		Rules:    []string{"PMD:UseStringBufferForStringAppends", "SpotBugs:SBSC_USE_STRINGBUFFER_CONCATENATION"},
		Evidence: "Sonar S1643 (sonar-findbugs: SBSC_USE_STRINGBUFFER_CONCATENATION); PMD docs",
	},
	{
		Problem:  "a private method that nothing calls",
		Rules:    []string{"PMD:UnusedPrivateMethod", "SpotBugs:UPM_UNCALLED_PRIVATE_METHOD"},
		Evidence: "Sonar S1144, UnusedPrivateMethod (sonar-pmd); SpotBugs docs",
	},
	{
		Problem:  "a private field that nothing uses",
		Rules:    []string{"PMD:UnusedPrivateField", "SpotBugs:UUF_UNUSED_FIELD"},
		Evidence: "Sonar S1068 (sonar-pmd: UnusedPrivateField; sonar-findbugs: UUF_UNUSED_FIELD); PMD and SpotBugs docs",
	},
	{
		Problem:  "a local variable whose value is never read",
		Rules:    []string{"Checkstyle:UnusedLocalVariable", "PMD:UnusedLocalVariable", "PMD:UnusedAssignment", "SpotBugs:DLS_DEAD_LOCAL_STORE"},
		Evidence: "Sonar S1481 (sonar-pmd: UnusedLocalVariable; sonar-findbugs: DLS_DEAD_LOCAL_STORE); PMD docs for UnusedAssignment; Checkstyle docs (10.3 and later)",
	},
	{
		Problem:  "System.gc() called explicitly",
		Rules:    []string{"PMD:DoNotCallGarbageCollectionExplicitly", "SpotBugs:DM_GC"},
		Evidence: "Sonar S1215 (sonar-pmd); SpotBugs docs",
	},
	{
		Problem:  "a thread's run() called instead of start()",
		Rules:    []string{"PMD:DontCallThreadRun", "SpotBugs:RU_INVOKE_RUN"},
		Evidence: "Sonar S1217 (sonar-pmd); SpotBugs docs",
	},
	{
		Problem:  "notify() called where notifyAll() is safer",
		Rules:    []string{"PMD:UseNotifyAllInsteadOfNotify", "SpotBugs:NO_NOTIFY_NOT_NOTIFYALL"},
		Evidence: "Sonar S2446 (sonar-pmd, sonar-findbugs)",
	},
	{
		Problem:  "a BigDecimal made from a double",
		Rules:    []string{"PMD:AvoidDecimalLiteralsInBigDecimalConstructor", "SpotBugs:DMI_BIGDECIMAL_CONSTRUCTED_FROM_DOUBLE"},
		Evidence: "Sonar S2111 (sonar-pmd, sonar-findbugs)",
	},
	{
		Problem:  "a variable assigned to itself",
		Rules:    []string{"PMD:IdempotentOperations", "SpotBugs:SA_LOCAL_SELF_ASSIGNMENT", "SpotBugs:SA_FIELD_SELF_ASSIGNMENT"},
		Evidence: "Sonar S1656 (sonar-pmd: IdempotentOperations; sonar-findbugs: SA_LOCAL_SELF_ASSIGNMENT)",
	},
	{
		Problem:  "equals(null), which is always false",
		Rules:    []string{"PMD:EqualsNull", "SpotBugs:EC_NULL_ARG"},
		Evidence: "PMD and SpotBugs docs",
	},
	{
		Problem:  "toString() called on a String",
		Rules:    []string{"PMD:StringToString", "SpotBugs:DM_STRING_TOSTRING"},
		Evidence: "Sonar S1858 (sonar-pmd, sonar-findbugs)",
	},
	{
		Problem:  "an object made only to call getClass()",
		Rules:    []string{"PMD:InstantiationToGetClass", "SpotBugs:DM_NEW_FOR_GETCLASS"},
		Evidence: "Sonar S2133 (sonar-pmd, sonar-findbugs)",
	},
	{
		Problem:  "a primitive wrapper made with its constructor instead of valueOf()",
		Rules:    []string{"PMD:PrimitiveWrapperInstantiation", "PMD:IntegerInstantiation", "PMD:LongInstantiation", "PMD:ShortInstantiation", "PMD:ByteInstantiation", "PMD:BooleanInstantiation", "SpotBugs:DM_NUMBER_CTOR", "SpotBugs:DM_FP_NUMBER_CTOR", "SpotBugs:DM_BOOLEAN_CTOR"},
		Evidence: "PMD docs (PMD 6.37's PrimitiveWrapperInstantiation replaces the five PMD rules) and SpotBugs docs",
	},
	{
		Problem:  "a String made with new String(...)",
		Rules:    []string{"PMD:StringInstantiation", "SpotBugs:DM_STRING_CTOR"},
		Evidence: "PMD and SpotBugs docs",
	},
	{
		Problem:  "a Serializable class without a serialVersionUID",
		Rules:    []string{"PMD:MissingSerialVersionUID", "SpotBugs:SE_NO_SERIALVERSIONID"},
		Evidence: "Sonar S2057 (sonar-pmd, sonar-findbugs)",
	},
	{
		Problem:  "double-checked locking on a field that is not volatile",
		Rules:    []string{"PMD:DoubleCheckedLocking", "SpotBugs:DC_DOUBLECHECK"},
		Evidence: "PMD and SpotBugs docs",
	},
	{
		Problem:  "a method named hashcode(), not hashCode()",
		Rules:    []string{"PMD:SuspiciousHashcodeMethodName", "SpotBugs:NM_LCASE_HASHCODE"},
		Evidence: "Sonar S1221 (sonar-pmd: SuspiciousHashcodeMethodName); SpotBugs docs",
	},
	{
		Problem:  "a static field initialized lazily without synchronization",
		Rules:    []string{"PMD:NonThreadSafeSingleton", "SpotBugs:LI_LAZY_INIT_STATIC"},
		Evidence: "Sonar S2444 (sonar-pmd: NonThreadSafeSingleton); SpotBugs docs",
	},
	{
		Problem:  "a final field set to a constant in every instance, which could be static",
		Rules:    []string{"PMD:FinalFieldCouldBeStatic", "SpotBugs:SS_SHOULD_BE_STATIC"},
		Evidence: "Sonar S1170 (sonar-pmd: FinalFieldCouldBeStatic; sonar-findbugs: SS_SHOULD_BE_STATIC)",
	},
	{
		Problem:  "System.exit() called, which stops the whole virtual machine",
		Rules:    []string{"PMD:DoNotTerminateVM", "PMD:DoNotCallSystemExit", "SpotBugs:DM_EXIT"},
		Evidence: "Sonar S1147 (sonar-pmd: DoNotCallSystemExit, which PMD's DoNotTerminateVM replaces); PMD and SpotBugs docs",
	},
	{
		Problem:  "the result of a stream's read() or skip() ignored",
		Rules:    []string{"PMD:UnusedReturnValue", "PMD:CheckSkipResult", "SpotBugs:RR_NOT_CHECKED", "SpotBugs:SR_NOT_CHECKED"},
		Evidence: "Sonar S2674 (sonar-pmd: CheckSkipResult; sonar-findbugs: RR_NOT_CHECKED); PMD docs (7.27's UnusedReturnValue replaces CheckSkipResult) and SpotBugs docs",
	},
}

// Anchors are the rules whose findings the tools place a line away from
// where another tool places the same problem (docs/formats.md, "Where the
// tools place one problem"): a finding of such a rule reaches one line
// further when it is matched across lines, so that one problem reported
// on an annotation's line, a declaration's line and a method's first line
// of code is one.
//
//   - Checkstyle places a finding about a declaration on its first token,
//     an annotation when it has one on a line of its own (@Override on the
//     line above `public boolean equals(...)`): its findings reach one line
//     down, to the declaration's line, where PMD places the same problem.
//   - SpotBugs places a bug about a method on the method's lines of code,
//     from the first to the last, never on its declaration: its findings
//     reach one line up, to the declaration's line.
//
// recap knows this from the rule alone (no source is read): the reach is
// the rule's, whatever the line holds, and joins only findings of one class.
var Anchors = map[string]Anchor{
	"Checkstyle:EqualsHashCode":              {Down: 1},
	"Checkstyle:JavadocVariable":             {Down: 1},
	"Checkstyle:MissingJavadocMethod":        {Down: 1},
	"Checkstyle:MissingJavadocType":          {Down: 1},
	"SpotBugs:HE_EQUALS_USE_HASHCODE":        {Up: 1},
	"SpotBugs:HE_HASHCODE_USE_OBJECT_EQUALS": {Up: 1},
	"SpotBugs:UPM_UNCALLED_PRIVATE_METHOD":   {Up: 1},
	"SpotBugs:CN_IDIOM_NO_SUPER_CALL":        {Up: 1},
	"SpotBugs:NM_METHOD_NAMING_CONVENTION":   {Up: 1},
	"SpotBugs:FI_MISSING_SUPER_CALL":         {Up: 1},
	"SpotBugs:EQ_SELF_NO_OBJECT":             {Up: 1},
	"SpotBugs:EQ_SELF_USE_OBJECT":            {Up: 1},
	"SpotBugs:NM_LCASE_HASHCODE":             {Up: 1},
}

// An Anchor is how many lines further up and down the findings of a rule
// reach when they are matched with others of their class.
type Anchor struct{ Up, Down int }

// anchorIndex is Anchors by tool, as classIndex.
var anchorIndex = func() (index [toolSpotBugs + 1]map[string]Anchor) {
	for t := range index {
		index[t] = map[string]Anchor{}
	}
	for r, a := range Anchors {
		tool, rule, _ := strings.Cut(r, ":")
		index[toolOf(tool)][rule] = a
	}
	return index
}()

// anchorOf returns the reach of (tool, rule), by the rule's short name.
func anchorOf(tool, rule string) Anchor {
	t := toolOf(tool)
	if t == toolNone {
		return Anchor{}
	}
	return anchorIndex[t][reports.ShortRule(tool, rule)]
}

// A javaTool is one of the tools whose rules RuleClasses names.
type javaTool uint8

const (
	toolNone javaTool = iota
	toolCheckstyle
	toolPMD
	toolSpotBugs
)

// toolOf reads a tool's name, case-insensitively; FindBugs is SpotBugs.
func toolOf(name string) javaTool {
	switch len(name) {
	case len("PMD"):
		if strings.EqualFold(name, "PMD") {
			return toolPMD
		}
	case len("SpotBugs"):
		if strings.EqualFold(name, "SpotBugs") || strings.EqualFold(name, "FindBugs") {
			return toolSpotBugs
		}
	case len("Checkstyle"):
		if strings.EqualFold(name, "Checkstyle") {
			return toolCheckstyle
		}
	}
	return toolNone
}

// classIndex maps each tool's rules of RuleClasses to their class, made
// once; a rule written twice keeps its first class (TestRuleClasses fails on
// it). One map per tool keeps the key a string, the map's fast path.
var classIndex = func() (index [toolSpotBugs + 1]map[string]int) {
	for t := range index {
		index[t] = map[string]int{}
	}
	for i, c := range RuleClasses {
		for _, r := range c.Rules {
			tool, rule, _ := strings.Cut(r, ":")
			m := index[toolOf(tool)]
			if _, ok := m[rule]; !ok {
				m[rule] = i
			}
		}
	}
	return index
}()

// ClassOf returns the index of the class of (tool, rule) in RuleClasses, -1
// for none. The tool is compared case-insensitively ("FindBugs" is SpotBugs),
// the rule by its short name ([reports.ShortRule]: a Checkstyle check's class name
// "com.puppycrawl.tools.checkstyle.checks.blocks.NeedBracesCheck" is
// NeedBraces). It allocates nothing: views call it for every finding.
func ClassOf(tool, rule string) int {
	t := toolOf(tool)
	if t == toolNone {
		return -1
	}
	if i, ok := classIndex[t][reports.ShortRule(tool, rule)]; ok {
		return i
	}
	return -1
}
