package triage

import "github.com/recap-dev/recap/reports"

// Mark is the decision as views show it on its finding
// (reports.Finding.Triage).
func (d *Decision) Mark() *reports.Triage {
	if d == nil {
		return nil
	}
	e := d.Entry
	return &reports.Triage{State: string(e.State), Reason: e.Reason, By: e.By, Date: e.Date, Until: e.Until, Link: e.Link, Expired: d.Expired,
		Of: reports.DecidedFinding{Tool: e.Tool, Rule: e.Rule, Path: e.Path, Location: e.Location, Line: e.Line, Message: e.Message, Commit: e.Commit}}
}
