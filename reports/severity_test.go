package reports

import (
	"encoding/json"
	"testing"
)

func TestParseSeverity(t *testing.T) {
	tests := map[string]struct {
		in      string
		want    Severity
		wantErr bool
	}{
		"error":           {in: "error", want: SeverityError},
		"warning":         {in: "warning", want: SeverityWarning},
		"note":            {in: "note", want: SeverityNote},
		"checkstyle info": {in: "info", want: SeverityNote},
		"upper case":      {in: "ERROR", want: SeverityError},
		"padded":          {in: " warning ", want: SeverityWarning},
		"unknown":         {in: "fatal", wantErr: true},
		"empty":           {in: "", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseSeverity(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("ParseSeverity(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("ParseSeverity(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestSeverityOrderAndJSON(t *testing.T) {
	if !(SeverityError > SeverityWarning && SeverityWarning > SeverityNote && SeverityNote > 0) {
		t.Fatal("severities are not ordered error > warning > note > invalid")
	}
	b, err := json.Marshal(map[string]Severity{"s": SeverityWarning})
	if err != nil || string(b) != `{"s":"warning"}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var back map[string]Severity
	if err := json.Unmarshal(b, &back); err != nil || back["s"] != SeverityWarning {
		t.Fatalf("Unmarshal = %v, %v", back, err)
	}
	if _, err := json.Marshal(Severity(0)); err == nil {
		t.Error("Marshal of the zero severity succeeded, want an error")
	}
	if Severity(9).String() != "invalid" {
		t.Errorf("Severity(9).String() = %q", Severity(9).String())
	}
}
