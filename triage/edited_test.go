package triage

import (
	"slices"
	"testing"
)

func TestLikeness(t *testing.T) {
	for _, c := range []struct {
		a, b string
		like bool
	}{
		{"private Date created;", "private Date createdOn;", true},
		{"int sum = 0;", "int total = 0;", true},
		{"    foo(a,b);", "foo(a, b, c);", true},
		{`ResultSet rows = statement.executeQuery("SELECT * FROM c WHERE n='" + name + "'");`, `ResultSet rows = prepared.executeQuery();`, false},
		{"private Date created;", "private Date shippedOn = new Date(0L);", false},
		{"private Date created;", "private Instant createdAt = Instant.now();", false},
		{"return net * 119 / 100;", "}", false},
		{"", "", true},
	} {
		if got := likeness([]byte(c.a), []byte(c.b)); (got >= minLikeness) != c.like {
			t.Errorf("likeness(%q, %q) = %.2f, want like %v", c.a, c.b, got, c.like)
		}
	}
}

// TestReplacedBy: the line git's diff puts in a decided line's place,
// among the lines that have a finding (wanted).
func TestReplacedBy(t *testing.T) {
	old := "class A {\n    private Date created;\n    private int n;\n}\n"
	for _, c := range []struct {
		name, cur string
		wanted    []int
		want      int
	}{
		{"renamed", "class A {\n    private Date createdOn;\n    private int n;\n}\n", []int{2}, 2},
		{"renamed, no finding there", "class A {\n    private Date createdOn;\n    private int n;\n}\n", []int{3}, 0},
		{"rewritten", "class A {\n    private Instant createdAt = Instant.now();\n    private int n;\n}\n", []int{2}, 0},
		{"renamed, a line added above it", "class A {\n    // when\n    private Date createdOn;\n    private int n;\n}\n", []int{2, 3}, 3},
		{"deleted", "class A {\n    private int n;\n}\n", []int{2}, 0},
		{"two alike", "class A {\n    private Date createdOn;\n    private Date createdAt;\n    private int n;\n}\n", []int{2, 3}, 0},
		{"kept", old, []int{2}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, cur := newSourceFile([]byte(old)), newSourceFile([]byte(c.cur))
			lineOf, err := linesOf(o.src, cur.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := replacedBy(o, 2, lineOf, cur, func(j int) bool { return slices.Contains(c.wanted, j) }); got != c.want {
				t.Errorf("replacedBy = %d, want %d", got, c.want)
			}
		})
	}
}

// TestEditedFinding: of the findings on the edited line, the one to
// decide again.
func TestEditedFinding(t *testing.T) {
	vat := Entry{Line: "return net * 119 / 100;", Message: "'119' is a magic number."}
	customer := Entry{Line: "public Order(String customer, Date created) {", Message: "Parameter customer should be final."}
	created := Entry{Line: "public Order(String customer, Date created) {", Message: "Parameter created should be final."}
	for _, c := range []struct {
		name     string
		e        Entry
		messages []string
		want     string
	}{
		{"the number edited", vat, []string{"'120' is a magic number."}, "'120' is a magic number."},
		{"the number made a constant, one beside it left", vat, []string{"'100' is a magic number."}, ""},
		{"the number edited, and one beside it", vat, []string{"'100' is a magic number.", "'120' is a magic number."}, "'120' is a magic number."},
		{"the same message", vat, []string{"'120' is a magic number.", "'119' is a magic number."}, "'119' is a magic number."},
		{"two new", vat, []string{"'120' is a magic number.", "'121' is a magic number."}, ""},
		{"a parameter renamed", created, []string{"Parameter customer should be final.", "Parameter createdAt should be final."}, "Parameter createdAt should be final."},
		{"its parameter deleted, another kept", customer, []string{"Parameter created should be final."}, ""},
		{"another parameter deleted", created, []string{"Parameter created should be final."}, "Parameter created should be final."},
		{"both parameters renamed, of one", customer, []string{"Parameter customerName should be final.", "Parameter createdAt should be final."}, "Parameter customerName should be final."},
		{"both parameters renamed, of the other", created, []string{"Parameter customerName should be final.", "Parameter createdAt should be final."}, "Parameter createdAt should be final."},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &Matcher{}
			var us []int
			for k, msg := range c.messages {
				m.undecided = append(m.undecided, undecided{message: msg})
				us = append(us, k)
			}
			got := ""
			if u := m.editedFinding(&c.e, us); u != nil {
				got = u.message
			}
			if got != c.want {
				t.Errorf("editedFinding = %q, want %q", got, c.want)
			}
		})
	}
}
