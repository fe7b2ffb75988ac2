package config

import (
	_ "embed"
	"slices"
)

// SchemaURL is where editors find the JSON Schema of the file, for the
// first line of a .recap.yml:
//
//	# yaml-language-server: $schema=https://raw.githubusercontent.com/recap-dev/recap/main/config/recap.schema.json
const SchemaURL = "https://raw.githubusercontent.com/recap-dev/recap/main/config/recap.schema.json"

//go:embed recap.schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of the configuration
// file, recap.schema.json, for editors and for a command that prints it.
// What it cannot say (a glob's syntax, a key given twice, the number of
// patterns in the whole file) Parse still checks.
func Schema() []byte { return slices.Clone(schema) }

// TriageSchemaURL is where editors find the JSON Schema of the triage
// file (docs/triage.md).
const TriageSchemaURL = "https://raw.githubusercontent.com/recap-dev/recap/main/config/triage.schema.json"

//go:embed triage.schema.json
var triageSchema []byte

// TriageSchema returns the JSON Schema (draft 2020-12) of the triage file,
// triage.schema.json. What it cannot say (an entry given twice, a day that
// does not exist) the triage package's Parse still checks.
func TriageSchema() []byte { return slices.Clone(triageSchema) }
