// Package diff reads changes: unified diff text and git repositories (with
// go-git, no git binary needed), as one model of files, hunks and lines; it
// drops whitespace-only hunks and indexes the changed lines of the head
// revision. It also serves a revision's files as code context.
package diff
