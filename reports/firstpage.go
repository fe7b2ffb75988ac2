package reports

import "slices"

// FirstPageSize is the findings at the head of a view in the default order
// that show different rules first (docs/formats.md, "The view"): the first
// page of recap findings; the MCP server's first answer is its start.
const FirstPageSize = 50

// FirstPage picks the head of a view in the default order
// ([OrderImportance]) so that the most important problems of different
// rules come before a second finding of one rule: of n findings in view
// order (impact and rule give finding i's), it returns the indexes of
// the first size of them in this order: impact, highest first; within one
// impact, the first finding of each rule (the rule's most important) before
// the others; then view order. A rule's first finding is its first in the
// whole view, so a rule seen at a higher impact has only further findings
// at a lower one. A less important finding never comes before a more
// important one (impact first): the head only puts breadth before depth
// within each impact.
//
// The view is then the head, followed by every other finding in view
// order ([Reorder]): no finding is lost or repeated across pages, and the
// findings past the head are in view order.
//
// Its time is linear in the findings it reads: those of the impacts the
// head reaches, at most n. A caller that keeps only some findings as they
// stream gets the same head from the first size findings and the first
// findings of the first size rules, together in view order (summarize's
// page keeps both).
func FirstPage[R comparable](n, size int, impact func(int) Impact, rule func(int) R) []int {
	head := make([]int, 0, min(n, size))
	seen := map[R]bool{}
	var further []int
	for i := 0; i < n && len(head) < size; {
		tier := impact(i)
		further = further[:0]
		for ; i < n && impact(i) == tier && len(head) < size; i++ {
			r := rule(i)
			switch {
			case !seen[r]:
				seen[r] = true
				head = append(head, i)
			case len(head)+len(further) < size:
				further = append(further, i)
			}
		}
		head = append(head, further[:min(len(further), size-len(head))]...)
	}
	return head
}

// Reorder puts the elements of s at the indexes head first, in that order,
// and the others after them in their order, in place; it returns s.
func Reorder[T any](s []T, head []int) []T {
	if len(head) == 0 {
		return s
	}
	firsts := make([]T, len(head))
	in := make(map[int]bool, len(head))
	for k, i := range head {
		firsts[k] = s[i]
		in[i] = true
	}
	w := len(s) - 1
	for j := len(s) - 1; j >= 0; j-- {
		if !in[j] {
			s[w] = s[j]
			w--
		}
	}
	copy(s, firsts)
	return s
}

// HeadOrder reports whether the order has a head of different rules first
// ([FirstPage]): the default order only; the others are asked for by name
// and kept exactly.
func (o Order) HeadOrder() bool { return o == OrderImportance }

// ReorderKeys returns the findings of a sorted slice with the head of
// [FirstPage] first; rule identity is (tool, rule).
func ReorderKeys(fs []Finding, size int) []Finding {
	head := FirstPage(len(fs), size, func(i int) Impact { return fs[i].Impact },
		func(i int) [2]string { return [2]string{fs[i].Tool, fs[i].Rule} })
	return Reorder(slices.Clip(fs), head)
}
