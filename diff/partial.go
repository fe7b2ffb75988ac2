package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Partial clones. A clone made with a filter (git clone --filter=blob:none,
// actions/checkout's `filter`) has every commit and tree but a file's
// content only once git needs it: git fetches it then from the clone's
// promisor remote. go-git fetches nothing, so recap asks git to: the
// contents a diff reads, all of them at once before the diff reads any,
// and a file at a revision (code context, a triage decision's line) when
// it is read. Without git on PATH, or when the fetch fails, the error
// says so.

// ErrPartial: the content is not in this partial clone and could not be
// fetched.
var ErrPartial = errors.New("not in this partial clone")

// fetchTimeout bounds one fetch of missing objects.
const fetchTimeout = 5 * time.Minute

// promisor returns the remote a partial clone fetches the objects it lacks
// from; "" when the repository is no partial clone.
func (r *Repo) promisor() string {
	cfg, err := r.repo.Config()
	if err != nil || cfg.Raw == nil {
		return ""
	}
	// git 2.x writes remote.<name>.promisor; older ones
	// extensions.partialClone.
	if name := cfg.Raw.Section("extensions").Option("partialclone"); name != "" {
		return name
	}
	for _, s := range cfg.Raw.Section("remote").Subsections {
		if strings.EqualFold(s.Option("promisor"), "true") {
			return s.Name
		}
	}
	return ""
}

// has reports whether s holds object h.
func has(s storer.EncodedObjectStorer, h plumbing.Hash) bool {
	if ps, ok := s.(*packStore); ok {
		if _, err := ps.packedSize(h); err == nil {
			return true
		}
	}
	return s.HasEncodedObject(h) == nil
}

// fetchMissing asks git to fetch, from the promisor remote, those of
// hashes that s lacks, in one fetch, as git itself does before a diff. It
// returns how many were fetched: a storage opened before must be opened
// again (or reindexed) to see them.
func (r *Repo) fetchMissing(ctx context.Context, s storer.EncodedObjectStorer, remote string, hashes []plumbing.Hash) (int, error) {
	var missing []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	for _, h := range hashes {
		if !h.IsZero() && !seen[h] && !has(s, h) {
			missing = append(missing, h)
		}
		seen[h] = true
	}
	if len(missing) == 0 {
		return 0, nil
	}
	return len(missing), r.fetch(ctx, remote, missing)
}

// fetch runs git fetch of those objects from remote, in the repository.
func (r *Repo) fetch(ctx context.Context, remote string, objects []plumbing.Hash) error {
	what, it := fmt.Sprintf("the contents of %d files are", len(objects)), "them"
	if len(objects) == 1 {
		what, it = "the content "+objects[0].String()[:12]+" is", "it"
	}
	git, err := exec.LookPath("git")
	if errors.Is(err, exec.ErrDot) {
		// git in a directory PATH names relatively: run from the
		// repository, that could be one the repository holds.
		return repoErrorf(ErrPartial, "%s not in this partial clone (cloned with a --filter), and git, which would fetch %s from %s, is on PATH only through a relative directory, which recap does not run from: name its directory by an absolute path", what, it, remote)
	}
	if err != nil {
		return repoErrorf(ErrPartial, "%s not in this partial clone (cloned with a --filter), and git, which would fetch %s from %s, is not on PATH: install git, or clone without a filter (actions/checkout: no `filter`)", what, it, remote)
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	var in bytes.Buffer
	for _, h := range objects {
		in.WriteString(h.String())
		in.WriteByte('\n')
	}
	// As git fetches what a partial clone lacks (promisor-remote.c):
	// these objects alone, no tags, no ref written.
	cmd := exec.CommandContext(ctx, git, "-c", "fetch.negotiationAlgorithm=noop", "fetch", remote,
		"--no-tags", "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", "--stdin")
	cmd.Dir = r.Root
	cmd.Stdin = &in
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0") // never wait for a password no one types
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		// git's first line says why (the rest, what to check).
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return repoErrorf(ErrPartial, "%s not in this partial clone (cloned with a --filter), and git fetch %s failed: %s (let git reach the remote, or clone without a filter)", what, remote, cut(msg, 300))
	}
	return nil
}

// cut cuts s to at most n characters, "…" included.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
