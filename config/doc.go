// Package config reads a repository's configuration file, .recap.yml
// (docs/config.md), and says what it means for each finding: whether it is
// excluded (by path or by rule), how overrides change its impact, quality,
// severity or category, and whether two findings' rules mean the same.
//
// It owns the file's format, its JSON Schema ([Schema]) and its messages;
// it does not read reports, count what it excluded or print warnings: the
// caller does, with what [Config.Excluded] and [Config.Unmatched] tell it.
//
// Entry points: [LoadDir] (the file at a repository's root, or none),
// [Load] (a named file, --config), [Parse] (bytes). A nil *Config is no
// configuration. Per finding, in this order: [Config.Excluded] (count it
// and go on), [Config.Apply], then the filters; [Config.SameRule] when
// grouping findings of one place.
//
//	cfg, err := config.LoadDir(root) // nil, nil without a file
//	if err != nil {
//		return err // exit 2: names the file, line, column and key
//	}
//	for each finding f {
//		if cfg.Excluded(&f) {
//			excluded++
//			continue
//		}
//		cfg.Apply(&f)
//		...
//	}
//
// Rules are written Tool:Rule with the rule's short name
// ([reports.ShortRule]), globs allowed ([RulePattern]).
package config
