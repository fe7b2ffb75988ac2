package reports

// ImpactLevel is the level a host with three levels (a workflow
// annotation, a check run's annotation, SARIF's level) shows a finding of
// impact i: blocker and high are errors, medium a warning, low and info
// notes (docs/formats.md, "Levels on the hosts").
func ImpactLevel(i Impact) Severity {
	switch i {
	case ImpactBlocker, ImpactHigh:
		return SeverityError
	case ImpactMedium:
		return SeverityWarning
	}
	return SeverityNote
}

// HostLevel is the level the outputs give a finding: its impact's
// ([ImpactLevel]), else (a finding without one) its tool's severity.
func HostLevel(sev Severity, i Impact) Severity {
	if i.Valid() {
		return ImpactLevel(i)
	}
	return sev
}

// Level is the finding's level on the hosts ([HostLevel]).
func (f *Finding) Level() Severity { return HostLevel(f.Severity, f.Impact) }

// ImpactSecuritySeverity is the security severity (SARIF's
// security-severity, 0.1 to 10.0) that stands for impact i when the tool
// gave no number: the middle of the CVSS band GitHub's code scanning files
// it under (critical above 9.0, high 7.0 to 8.9, medium 4.0 to 6.9, low
// 0.1 to 3.9); 0 for info and no impact.
func ImpactSecuritySeverity(i Impact) float64 {
	switch i {
	case ImpactBlocker:
		return 9.5
	case ImpactHigh:
		return 8.0
	case ImpactMedium:
		return 5.5
	case ImpactLow:
		return 2.0
	}
	return 0
}
