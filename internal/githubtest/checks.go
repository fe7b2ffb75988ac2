package githubtest

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
)

// CheckRun is a check run as the stand-in keeps it.
type CheckRun struct {
	ID          int64
	Name        string
	HeadSHA     string
	Status      string
	Conclusion  string
	Title       string
	Summary     string
	DetailsURL  string
	Annotations []Annotation
	// Updates counts the PATCH requests that added to it.
	Updates int
}

// Annotation is an annotation of a check run.
type Annotation struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	StartColumn int    `json:"start_column"`
	EndColumn   int    `json:"end_column"`
	Level       string `json:"annotation_level"`
	Title       string `json:"title"`
	Message     string `json:"message"`
	RawDetails  string `json:"raw_details"`
}

type checkRequest struct {
	Name        string `json:"name"`
	HeadSHA     string `json:"head_sha"`
	Status      string `json:"status"`
	Conclusion  string `json:"conclusion"`
	StartedAt   string `json:"started_at"`
	CompletedAt string `json:"completed_at"`
	DetailsURL  string `json:"details_url"`
	ExternalID  string `json:"external_id"`
	Output      *struct {
		Title       *string      `json:"title"`
		Summary     *string      `json:"summary"`
		Text        string       `json:"text"`
		Annotations []Annotation `json:"annotations"`
	} `json:"output"`
}

var checkFields = []string{"name", "head_sha", "details_url", "external_id", "status", "started_at", "conclusion", "completed_at", "output", "actions"}

var fullSHA = regexp.MustCompile(`^[0-9a-f]{40}$`)

// unprocessable answers 422 as GitHub's Checks API does.
func unprocessable(w http.ResponseWriter, msg string) {
	writeJSON(w, 422, map[string]any{"message": msg, "documentation_url": "https://docs.github.com/rest/checks/runs#create-a-check-run", "status": "422"})
}

// checkOutput validates a request's output as GitHub does: a title and a
// summary of at most 65,535 characters, at most 50 annotations, each with
// a path, lines that start at 1 and do not run backwards, columns only on
// one line, a level, a message, and bounded title, message and details.
func (s *Server) checkOutput(w http.ResponseWriter, req *checkRequest) bool {
	o := req.Output
	if o.Title == nil || *o.Title == "" || o.Summary == nil {
		unprocessable(w, "Invalid request.\n\nFor 'properties/output', {} is not valid: title and summary are required.")
		return false
	}
	if n := len([]rune(*o.Summary)); n > 65535 {
		unprocessable(w, fmt.Sprintf("Invalid request.\n\nsummary is too long (%d characters, maximum is 65535)", n))
		return false
	}
	if len(o.Annotations) > 50 {
		unprocessable(w, "Invalid request.\n\nOnly 50 annotations are allowed per request.")
		return false
	}
	for i, a := range o.Annotations {
		bad := ""
		switch {
		case a.Path == "":
			bad = "path is missing"
		case a.StartLine < 1 || a.EndLine < a.StartLine:
			bad = fmt.Sprintf("lines %d-%d are not valid", a.StartLine, a.EndLine)
		case (a.StartColumn != 0 || a.EndColumn != 0) && a.StartLine != a.EndLine:
			bad = "start_column and end_column are only allowed on one line"
		case a.EndColumn != 0 && a.EndColumn < a.StartColumn:
			bad = "end_column is before start_column"
		case a.Level != "notice" && a.Level != "warning" && a.Level != "failure":
			bad = "annotation_level is not valid"
		case a.Message == "" || len(a.Message) > 64<<10 || len(a.RawDetails) > 64<<10 || len([]rune(a.Title)) > 255:
			bad = "message, title or raw_details is missing or too long"
		}
		if bad != "" {
			unprocessable(w, fmt.Sprintf("Invalid request.\n\nannotations[%d]: %s", i, bad))
			return false
		}
	}
	return true
}

func (s *Server) createCheckRun(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	if !s.decode(w, r, checkFields, &req) {
		return
	}
	if req.Name == "" || req.HeadSHA == "" {
		unprocessable(w, "Invalid request.\n\nname and head_sha are required.")
		return
	}
	if !fullSHA.MatchString(req.HeadSHA) || s.Commits != nil && !s.Commits[req.HeadSHA] {
		unprocessable(w, "No commit found for SHA: "+req.HeadSHA)
		return
	}
	if (req.Status == "completed" || req.CompletedAt != "") && req.Conclusion == "" {
		unprocessable(w, "Invalid request.\n\nconclusion is required when status is completed.")
		return
	}
	if req.Output == nil {
		unprocessable(w, "Invalid request.\n\noutput is required by recap's use.")
		return
	}
	if !s.checkOutput(w, &req) {
		return
	}
	s.nextID++
	status := req.Status
	if req.Conclusion != "" {
		status = "completed"
	}
	run := &CheckRun{ID: s.nextID, Name: req.Name, HeadSHA: req.HeadSHA, Status: status, Conclusion: req.Conclusion,
		Title: *req.Output.Title, Summary: *req.Output.Summary, DetailsURL: req.DetailsURL, Annotations: req.Output.Annotations}
	s.CheckRuns = append(s.CheckRuns, run)
	writeJSON(w, 201, s.checkRunJSON(run))
}

func (s *Server) updateCheckRun(w http.ResponseWriter, r *http.Request, id string) {
	var req checkRequest
	if !s.decode(w, r, checkFields, &req) {
		return
	}
	var run *CheckRun
	for _, c := range s.CheckRuns {
		if strconv.FormatInt(c.ID, 10) == id {
			run = c
		}
	}
	if run == nil {
		writeJSON(w, 404, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/checks/runs#update-a-check-run"})
		return
	}
	if req.HeadSHA != "" {
		s.errorf("PATCH check run %s: head_sha is not a field of an update", id)
	}
	if req.Output != nil {
		if !s.checkOutput(w, &req) {
			return
		}
		run.Title, run.Summary = *req.Output.Title, *req.Output.Summary
		run.Annotations = append(run.Annotations, req.Output.Annotations...)
	}
	if req.Conclusion != "" {
		run.Conclusion, run.Status = req.Conclusion, "completed"
	}
	run.Updates++
	writeJSON(w, 200, s.checkRunJSON(run))
}

func (s *Server) checkRunJSON(run *CheckRun) map[string]any {
	return map[string]any{
		"id": run.ID, "name": run.Name, "head_sha": run.HeadSHA, "status": run.Status, "conclusion": run.Conclusion,
		"html_url": fmt.Sprintf("https://github.com/%s/%s/runs/%d", s.Owner, s.Repo, run.ID),
		"output": map[string]any{"title": run.Title, "summary": run.Summary, "annotations_count": len(run.Annotations),
			"annotations_url": fmt.Sprintf("%s/repos/%s/%s/check-runs/%d/annotations", s.URL, s.Owner, s.Repo, run.ID)},
	}
}

// Checks returns copies of the check runs made, under the lock.
func (s *Server) Checks() []CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]CheckRun, len(s.CheckRuns))
	for i, c := range s.CheckRuns {
		out[i] = *c
		out[i].Annotations = append([]Annotation(nil), c.Annotations...)
	}
	return out
}
