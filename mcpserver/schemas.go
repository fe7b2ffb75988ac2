package mcpserver

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/recap-dev/recap/reports"
)

// plainTypes gives every property of an input schema one plain type:
// jsonschema-go types a slice ["null","array"] and a pointer
// ["null","boolean"], which schema-driven clients (MCP Inspector 0.15 among
// them) cannot fill in; an absent argument is how a client leaves one out.
func plainTypes(sc *jsonschema.Schema) {
	for _, p := range sc.Properties {
		if len(p.Types) == 2 && slices.Contains(p.Types, "null") {
			p.Type = p.Types[0]
			if p.Type == "null" {
				p.Type = p.Types[1]
			}
			p.Types = nil
		}
	}
}

// outputSchema is the output schema of a tool whose structured content is
// a T: T's schema, with the error object of a failed call ({"error":
// {"code","message"}}) as the other shape it may take. Clients validate
// structuredContent against it, that of an isError result too.
func outputSchema[T any]() *jsonschema.Schema {
	sc := typeSchema(reflect.TypeFor[T]())
	errs := typeSchema(reflect.TypeFor[errorAnswer]())
	sc.Properties["error"] = errs.Properties["error"]
	sc.PropertyOrder = append(sc.PropertyOrder, "error")
	if len(sc.Required) > 0 {
		sc.AnyOf = []*jsonschema.Schema{required(sc.Required...), required("error")}
		sc.Required = nil
	}
	return sc
}

// required is a schema that requires names. Each is defined beside it too
// (by the empty schema: the outer schema types it), as strict validators
// ask (ajv's strictRequired refuses a required property that its own
// schema object does not define).
func required(names ...string) *jsonschema.Schema {
	sc := &jsonschema.Schema{Required: names, Properties: map[string]*jsonschema.Schema{}}
	for _, n := range names {
		sc.Properties[n] = &jsonschema.Schema{}
	}
	return sc
}

// typeSchema derives t's schema, with the types that marshal as text (a
// severity, a finding's id) typed as strings.
func typeSchema(t reflect.Type) *jsonschema.Schema {
	types := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[reports.Severity]():  {Type: "string", Enum: []any{"error", "warning", "note"}},
		reflect.TypeFor[reports.FindingID](): {Type: "string"},
	}
	textTypes(t, types, map[reflect.Type]bool{})
	sc, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: types})
	if err != nil {
		panic(err) // the answers' types are fixed: a failure is a bug any test catches
	}
	return sc
}

var (
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
)

// textTypes adds a string schema for each type reachable from t that is not
// a struct and marshals itself as text.
func textTypes(t reflect.Type, into map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	if _, ok := into[t]; !ok && t.Kind() != reflect.Struct && t.Kind() != reflect.Pointer &&
		(t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)) &&
		!t.Implements(jsonMarshaler) {
		into[t] = &jsonschema.Schema{Type: "string"}
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		textTypes(t.Elem(), into, seen)
	case reflect.Map:
		textTypes(t.Elem(), into, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				textTypes(f.Type, into, seen)
			}
		}
	}
}
