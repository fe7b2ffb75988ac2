package gitlabtest

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
)

// Reply adds a reply by who in the discussion that the note to starts,
// as GitLab keeps a reply made in a merge request's discussion (a
// DiffNote of the same discussion, with its position).
func (s *Server) Reply(t testing.TB, to int64, who User, body string) *Note {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.Notes {
		if n.ID != to {
			continue
		}
		if n.Discussion == "" {
			t.Fatalf("note %d starts no discussion", to)
		}
		r := s.newNote(body, who, n.Type)
		r.Position, r.Resolvable, r.Discussion = n.Position, n.Resolvable, n.Discussion
		s.Notes = append(s.Notes, r)
		return r
	}
	t.Fatalf("no note %d to reply to", to)
	return nil
}

// discussions are the merge request's discussions as GitLab lists them:
// each with its notes in order; a note outside a discussion is one of
// its own (individual_note).
func (s *Server) discussions() []any {
	var out []any
	at := map[string]int{}
	for _, n := range s.Notes {
		if n.Discussion == "" {
			out = append(out, map[string]any{"id": fmt.Sprintf("%040x", n.ID), "individual_note": true, "notes": []*Note{n}})
			continue
		}
		if i, ok := at[n.Discussion]; ok {
			d := out[i].(map[string]any)
			d["notes"] = append(d["notes"].([]*Note), n)
			continue
		}
		at[n.Discussion] = len(out)
		out = append(out, map[string]any{"id": n.Discussion, "individual_note": false, "notes": []*Note{n}})
	}
	return out
}

// mergeRequest is what GET …/merge_requests/:iid answers (the fields
// recap may read).
func (s *Server) mergeRequest() map[string]any {
	return map[string]any{"id": 99, "iid": s.MR, "project_id": 42, "title": "A change", "state": "opened",
		"web_url": fmt.Sprintf("https://gitlab.example/%s/-/merge_requests/%d", s.Path, s.MR)}
}

// member answers GET /projects/:id/members/all/:user_id: the member with
// its access level, or GitLab's 404 for someone who is no member.
func (s *Server) member(w http.ResponseWriter, id string) {
	uid, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		message(w, 404, "404 Not found")
		return
	}
	level, ok := s.Members[uid]
	if !ok {
		message(w, 404, "404 Not found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": uid, "username": "user" + id, "state": "active", "access_level": level})
}
