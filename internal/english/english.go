// Package english writes counts the way recap's messages say them.
package english

import "strconv"

// Plural writes n with the noun: "1 finding", "0 findings", "3 findings".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Verb is the verb that agrees with a count of n: one for 1 ("matches"),
// many for any other ("match").
func Verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
