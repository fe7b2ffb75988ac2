package triage

import _ "github.com/recap-dev/recap/internal/reportstest" // the -update flag of every test binary
