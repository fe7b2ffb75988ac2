# Third-party notices

The recap binary is built from recap's own code (LICENSE) and the Go
modules below, each under its own licence, whose text follows. The Go
standard library and runtime are under Go's licence (LICENSES/Go.txt).
This file is written by scripts/notices/run with google/go-licenses; a test
(TestNoticesNameEveryModule) checks that it names every module the binary
is built from.
{{ range . }}{{ if not (eq .LicenseName "Unknown" | and (eq .LicensePath "")) }}
## {{ .Name }}{{ if .Version }} {{ .Version }}{{ end }}

Licence: {{ .LicenseName }}

```
{{ .LicenseText }}
```
{{ end }}{{ end }}
