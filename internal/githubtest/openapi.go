package githubtest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// SpecPath is GitHub's OpenAPI description for github.com, from the npm
// package @octokit/openapi (package.json; npm install puts it there).
const SpecPath = "node_modules/@octokit/openapi/generated/api.github.com.json"

// Spec is GitHub's REST API as its OpenAPI 3.0 description gives it: the
// operations by method and path, their parameters, request bodies and
// responses, checked by a validator of the schema keywords the description
// uses (type, nullable, properties, required, additionalProperties, items,
// enum, minimum, maximum, minLength, maxLength, minItems, maxItems, oneOf,
// anyOf, allOf and $ref).
type Spec struct {
	doc   map[string]any
	paths []specPath
}

type specPath struct {
	template string
	re       *regexp.Regexp
	names    []string
	item     map[string]any
}

var (
	specOnce sync.Once
	spec     *Spec
	specErr  error
)

// LoadSpec reads GitHub's OpenAPI description once per test binary; nil
// when it is not installed (the caller says what is not checked).
func LoadSpec(t testing.TB) (*Spec, error) {
	root := reportstest.RepoRoot(t)
	specOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(SpecPath)))
		if err != nil {
			specErr = fmt.Errorf("GitHub's OpenAPI description is not installed (npm install puts %s there): %w", SpecPath, err)
			return
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			specErr = fmt.Errorf("%s: %w", SpecPath, err)
			return
		}
		s := &Spec{doc: doc}
		for tmpl, item := range doc["paths"].(map[string]any) {
			var names []string
			segs := strings.Split(tmpl, "/")
			for k, seg := range segs {
				if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
					names = append(names, strings.Trim(seg, "{}"))
					segs[k] = "([^/]+)"
				} else {
					segs[k] = regexp.QuoteMeta(seg)
				}
			}
			re := "^" + strings.Join(segs, "/") + "$"
			s.paths = append(s.paths, specPath{template: tmpl, re: regexp.MustCompile(re), names: names, item: item.(map[string]any)})
		}
		// Literal paths first: /repos/{o}/{r}/issues/comments before …/issues/{n}.
		sort.Slice(s.paths, func(i, j int) bool {
			ci, cj := strings.Count(s.paths[i].template, "{"), strings.Count(s.paths[j].template, "{")
			if ci != cj {
				return ci < cj
			}
			return s.paths[i].template < s.paths[j].template
		})
		spec = s
	})
	return spec, specErr
}

// Operation is one operation of the description.
type Operation struct {
	ID       string
	Template string
	op       map[string]any
	params   map[string]string // path parameter → value
	spec     *Spec
}

// Find returns the operation of method and path, or an error naming what
// GitHub would not know.
func (s *Spec) Find(method, path string) (*Operation, error) {
	for _, p := range s.paths {
		m := p.re.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		op, ok := p.item[strings.ToLower(method)].(map[string]any)
		if !ok {
			continue
		}
		o := &Operation{Template: p.template, op: op, params: map[string]string{}, spec: s}
		o.ID, _ = op["operationId"].(string)
		for i, n := range p.names {
			o.params[n] = m[i+1]
		}
		return o, nil
	}
	return nil, fmt.Errorf("%s %s is not an operation of GitHub's REST API", method, path)
}

// CheckParams checks the path parameters and the query against the
// operation's parameters: every query parameter must be one of them, and
// every value must fit its schema.
func (o *Operation) CheckParams(query map[string][]string) []string {
	var errs []string
	defs := map[string]map[string]any{}
	for _, p := range asSlice(o.op["parameters"]) {
		p := o.spec.resolve(p)
		defs[p["in"].(string)+":"+p["name"].(string)] = p
	}
	for name, v := range o.params {
		d := defs["path:"+name]
		if d == nil {
			errs = append(errs, fmt.Sprintf("path parameter %s is not defined", name))
			continue
		}
		errs = append(errs, o.spec.checkParam(name, v, d)...)
	}
	for name, vs := range query {
		d := defs["query:"+name]
		if d == nil {
			errs = append(errs, fmt.Sprintf("query parameter %q is not a parameter of %s", name, o.ID))
			continue
		}
		for _, v := range vs {
			errs = append(errs, o.spec.checkParam(name, v, d)...)
		}
	}
	for key, d := range defs {
		if req, _ := d["required"].(bool); req && strings.HasPrefix(key, "query:") && query[d["name"].(string)] == nil {
			errs = append(errs, fmt.Sprintf("required query parameter %s is missing", d["name"]))
		}
	}
	return errs
}

func (s *Spec) checkParam(name, v string, d map[string]any) []string {
	schema := s.resolve(d["schema"])
	var val any = v
	switch schema["type"] {
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return []string{fmt.Sprintf("parameter %s=%q is not an integer", name, v)}
		}
		val = float64(n)
	case "boolean":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return []string{fmt.Sprintf("parameter %s=%q is not a boolean", name, v)}
		}
		val = b
	}
	return s.Validate(schema, val, "parameter "+name, true)
}

// CheckBody checks a request body (nil when none was sent) against the
// operation's request body schema, unknown fields refused.
func (o *Operation) CheckBody(contentType string, body []byte) []string {
	rb := o.spec.resolve(o.op["requestBody"])
	if rb == nil {
		if len(body) > 0 {
			return []string{fmt.Sprintf("%s takes no request body", o.ID)}
		}
		return nil
	}
	if len(body) == 0 {
		if req, _ := rb["required"].(bool); req {
			return []string{fmt.Sprintf("%s requires a request body", o.ID)}
		}
		return nil
	}
	if !strings.HasPrefix(contentType, "application/json") {
		return []string{fmt.Sprintf("Content-Type %q, want application/json", contentType)}
	}
	media, _ := rb["content"].(map[string]any)["application/json"].(map[string]any)
	if media == nil {
		return []string{fmt.Sprintf("%s takes no JSON body", o.ID)}
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{"the body is not JSON: " + err.Error()}
	}
	return o.spec.Validate(media["schema"], v, "body", true)
}

// CheckResponse checks an answer of the stand-in against the operation's
// response for status: the fields it has must be fields of the schema, of
// their types (required fields are not asked for: the stand-in answers
// with what recap reads).
func (o *Operation) CheckResponse(status int, body []byte) []string {
	resps, _ := o.op["responses"].(map[string]any)
	r := o.spec.resolve(resps[strconv.Itoa(status)])
	if r == nil {
		return []string{fmt.Sprintf("%s does not answer %d", o.ID, status)}
	}
	content, _ := r["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	if media == nil || len(body) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{"the answer is not JSON: " + err.Error()}
	}
	return o.spec.validate(media["schema"], v, "answer", true, false)
}

// Validate checks v against schema; strict refuses properties the schema
// does not name (where it names some and allows no others explicitly).
func (s *Spec) Validate(schema any, v any, at string, strict bool) []string {
	return s.validate(schema, v, at, strict, true)
}

func (s *Spec) validate(schemaAny any, v any, at string, strict, required bool) []string {
	sc := s.resolve(schemaAny)
	if sc == nil {
		return nil
	}
	if v == nil {
		if n, _ := sc["nullable"].(bool); n || sc["type"] == nil && sc["oneOf"] == nil && sc["anyOf"] == nil && sc["allOf"] == nil {
			return nil
		}
		return []string{at + ": null is not allowed"}
	}
	var errs []string
	for _, sub := range asSlice(sc["allOf"]) {
		errs = append(errs, s.validate(sub, v, at, false, required)...)
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		alts := asSlice(sc[key])
		if len(alts) == 0 {
			continue
		}
		var first []string
		ok := false
		for i, sub := range alts {
			e := s.validate(sub, v, at, strict, required)
			if len(e) == 0 {
				ok = true
				break
			}
			if i == 0 {
				first = e
			}
		}
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: matches none of %s (first: %s)", at, key, strings.Join(first, "; ")))
		}
	}
	if enum := asSlice(sc["enum"]); len(enum) > 0 {
		found := false
		for _, e := range enum {
			found = found || e == v
		}
		if !found {
			errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", at, v, enum))
		}
	}
	switch t, _ := sc["type"].(string); t {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return append(errs, fmt.Sprintf("%s: want an object, got %T", at, v))
		}
		props, _ := sc["properties"].(map[string]any)
		if required {
			for _, r := range asSlice(sc["required"]) {
				if _, ok := obj[r.(string)]; !ok {
					errs = append(errs, fmt.Sprintf("%s: required field %q is missing", at, r))
				}
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := props[k]; ok {
				errs = append(errs, s.validate(p, obj[k], at+"."+k, strict, required)...)
				continue
			}
			switch ap := sc["additionalProperties"].(type) {
			case bool:
				if !ap {
					errs = append(errs, fmt.Sprintf("%s: field %q is not allowed", at, k))
				}
			case map[string]any:
				errs = append(errs, s.validate(ap, obj[k], at+"."+k, strict, required)...)
			default:
				if strict && (props != nil || sc["allOf"] == nil && sc["oneOf"] == nil && sc["anyOf"] == nil) {
					errs = append(errs, fmt.Sprintf("%s: field %q is not a field of the schema", at, k))
				}
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return append(errs, fmt.Sprintf("%s: want an array, got %T", at, v))
		}
		if n, ok := sc["minItems"].(float64); ok && float64(len(arr)) < n {
			errs = append(errs, fmt.Sprintf("%s: %d items, fewer than %v", at, len(arr), n))
		}
		if n, ok := sc["maxItems"].(float64); ok && float64(len(arr)) > n {
			errs = append(errs, fmt.Sprintf("%s: %d items, more than %v", at, len(arr), n))
		}
		for i, it := range arr {
			errs = append(errs, s.validate(sc["items"], it, fmt.Sprintf("%s[%d]", at, i), strict, required)...)
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return append(errs, fmt.Sprintf("%s: want a string, got %T", at, v))
		}
		n := float64(len([]rune(str)))
		if m, ok := sc["minLength"].(float64); ok && n < m {
			errs = append(errs, fmt.Sprintf("%s: shorter than %v", at, m))
		}
		if m, ok := sc["maxLength"].(float64); ok && n > m {
			errs = append(errs, fmt.Sprintf("%s: longer than %v", at, m))
		}
	case "integer", "number":
		n, ok := v.(float64)
		if !ok {
			return append(errs, fmt.Sprintf("%s: want a number, got %T", at, v))
		}
		if t == "integer" && n != math.Trunc(n) {
			errs = append(errs, fmt.Sprintf("%s: %v is not an integer", at, n))
		}
		if m, ok := sc["minimum"].(float64); ok && n < m {
			errs = append(errs, fmt.Sprintf("%s: %v under the minimum %v", at, n, m))
		}
		if m, ok := sc["maximum"].(float64); ok && n > m {
			errs = append(errs, fmt.Sprintf("%s: %v over the maximum %v", at, n, m))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			errs = append(errs, fmt.Sprintf("%s: want a boolean, got %T", at, v))
		}
	}
	return errs
}

// resolve follows $ref (local references only) and returns the object.
func (s *Spec) resolve(v any) map[string]any {
	for i := 0; i < 32; i++ {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		v = s.pointer(ref)
	}
	return nil
}

func (s *Spec) pointer(ref string) any {
	var cur any = s.doc
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
